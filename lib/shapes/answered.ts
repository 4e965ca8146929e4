/**
 * A section's answer shape, derived from its one declaration — the schema the rules check input with
 * (lib/rules/schemas.ts): the same fields and kinds, every field that input may leave out (it has a
 * default) present, and none of input's limits or normalisations, so that an answer accepts what a
 * deck stored under earlier rules holds (contract §3's "old records"). Its type is the input schema's
 * output, which is what a stored deck holds.
 */
import * as v from 'valibot';

interface Declared {
  type: string;
  wrapped?: Declared;
  default?: unknown;
  item?: Declared;
  entries?: Record<string, Declared>;
  options?: readonly string[];
  pipe?: readonly { type: string; requirement?: unknown }[];
}

function shown(s: Declared): v.GenericSchema {
  switch (s.type) {
    case 'strict_object':
      return v.strictObject(Object.fromEntries(Object.entries(s.entries ?? {}).map(([name, entry]) => [name, shown(entry)])));
    case 'optional':
    case 'nullish':
      // A default fills it on input: an answer always has it.
      if (s.default !== undefined) return shown(s.wrapped as Declared);
      return s.type === 'optional' ? v.optional(shown(s.wrapped as Declared)) : v.nullish(shown(s.wrapped as Declared));
    case 'nullable':
      return v.nullable(shown(s.wrapped as Declared));
    case 'array':
      return v.array(shown(s.item as Declared));
    case 'string':
      return v.string();
    case 'boolean':
      return v.boolean();
    case 'number': {
      // Kept: an integer stays one, and one that input never lets below zero is never negative.
      const integer = s.pipe?.some((action) => action.type === 'integer');
      const natural = s.pipe?.some((action) => action.type === 'min_value' && Number(action.requirement) >= 0);
      if (integer && natural) return v.pipe(v.number(), v.integer(), v.minValue(0));
      if (integer) return v.pipe(v.number(), v.integer());
      return natural ? v.pipe(v.number(), v.minValue(0)) : v.number();
    }
    case 'picklist':
      return v.picklist(s.options as [string, ...string[]]);
    default:
      throw new Error(`no answer shape for a ${s.type} schema`);
  }
}

export const answered = <T extends v.GenericSchema>(schema: T): v.GenericSchema<v.InferOutput<T>, v.InferOutput<T>> =>
  shown(schema as unknown as Declared) as v.GenericSchema<v.InferOutput<T>, v.InferOutput<T>>;
