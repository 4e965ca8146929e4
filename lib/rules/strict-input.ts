/**
 * The structure of a JSON value against a valibot schema, checked before valibot judges types and
 * limits (contract §8.1): an object is a JSON object, never an array (and an array never an object);
 * each of its own members is a field of the schema — whatever its name: `constructor`, `__proto__`,
 * `toString` are unknown like any other — and every one that is not is reported; every string is
 * well-formed Unicode (no unpaired surrogate). Every failure at every level is reported, each on its
 * path. Read from the schema itself, so the declaration stays the one source of the shape.
 */
import * as v from 'valibot';
import { at, type Detail, detail } from './details.ts';
import { issuesToDetails } from './issues.ts';

type Schema = v.GenericSchema & { type: string; wrapped?: Schema; entries?: Record<string, Schema>; item?: Schema };

const WRAPPERS = new Set(['optional', 'nullable', 'nullish', 'exact_optional', 'non_optional', 'non_nullable', 'non_nullish']);
const OBJECTS = new Set(['object', 'strict_object', 'loose_object']);

const unwrap = (schema: Schema): Schema => {
  let s = schema;
  while (WRAPPERS.has(s.type) && s.wrapped) s = s.wrapped;
  return s;
};

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every structural failure of `value` against `schema`, on paths below `path`. */
export function checkShape(schema: v.GenericSchema, value: unknown, path: string): Detail[] {
  const out: Detail[] = [];
  walk(schema as Schema, value, path, out);
  return out;
}

function walk(schema: Schema, value: unknown, path: string, out: Detail[]): void {
  if (typeof value === 'string') {
    if (!value.isWellFormed()) out.push(detail(path, 'invalid_value', `${path} holds an unpaired surrogate (not Unicode text)`));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const s = unwrap(schema);
  if (OBJECTS.has(s.type) && s.entries) {
    if (Array.isArray(value)) {
      out.push(detail(path, 'invalid_type', `${path || 'body'} must be an object, not an array`));
      return;
    }
    const entries = s.entries;
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      if (!Object.hasOwn(entries, key)) out.push(detail(at(path, key), 'unknown_field', `${at(path, key)} is not a field here`));
      else walk(entries[key] as Schema, member, at(path, key), out);
    }
    return;
  }
  // A record (valibot takes an array for one): an object of any members, never an array.
  if (s.type === 'record' && Array.isArray(value)) {
    out.push(detail(path, 'invalid_type', `${path || 'body'} must be an object, not an array`));
    return;
  }
  if (s.type === 'array' && s.item) {
    if (!Array.isArray(value)) {
      out.push(detail(path, 'invalid_type', `${path} must be an array, not an object`));
      return;
    }
    value.forEach((item, i) => {
      walk(s.item as Schema, item, at(path, i), out);
    });
  }
}

/** True when `path` is `failed` or lies below it (a member or an item of it). */
export const isUnder = (path: string, failed: string): boolean =>
  path === failed || (path.startsWith(failed) && (path[failed.length] === '.' || path[failed.length] === '[')) || failed === '';

/** Drops the details on or below a path that already failed its shape (nothing is judged twice). */
export const notUnder = (details: readonly Detail[], failed: readonly string[]): Detail[] =>
  details.filter((d) => !failed.some((f) => isUnder(d.path, f)));

export type Parsed<T> = { ok: true; output: T; details: [] } | { ok: false; details: Detail[] };

/**
 * A value read against its schema: the structure first (checkShape), then valibot's types and limits
 * for what is not already reported (valibot's own first-unknown-key issue included: the structure
 * check reports every unknown member). `path` prefixes every detail.
 */
export function parseStrict<S extends v.GenericSchema>(schema: S, value: unknown, path = ''): Parsed<v.InferOutput<S>> {
  const shape = checkShape(schema, value, path);
  const result = v.safeParse(schema, value, { abortEarly: false });
  if (shape.length === 0 && result.success) return { ok: true, output: result.output, details: [] };
  const failed = shape.map((d) => d.path);
  const typed = result.success ? [] : issuesToDetails(result.issues, path).filter((d) => d.code !== 'unknown_field');
  return { ok: false, details: [...shape, ...notUnder(typed, failed)] };
}
