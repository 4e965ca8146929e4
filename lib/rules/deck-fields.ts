/**
 * A deck's plain fields, declared once: the owner sets each to a value of its shape, a create that leaves one out gets
 * its initial value, a PATCH that leaves one out keeps it, every version keeps it (`changed` names it) and a restore
 * sets it back (contract §3, §4, §9.2). Each says what else it is: who sees it (`public`: every reader; `owner`: the
 * owner alone) and its answer's shape. The code, the guide, the archive and the display have rules of their own
 * (deck-write.ts) and are not here.
 *
 * Everything that lists a deck's fields takes these from here, in this order: a create or PATCH body's shapes and
 * its draft (deck-write.ts), the deck's content (deck-model.ts), the versioned fields and what a public history names
 * (changed-fields.ts), the answers and their schemas (shapes/deck-bodies.ts, shapes/responses.ts), a bulk record
 * (bulk.ts), the version item (store/items/version.ts), the owner list's projection (store/items/deck.ts) and a
 * restore (decks/restore-version.ts). A new field is a line here and its rules.
 *
 * The owner list reads a local secondary index whose projection names its attributes (store/tables.ts): DynamoDB
 * cannot change an LSI's projection on an existing table, so a field added after the table was made is `listed:
 * false` (the owner list then reads it from the deck item, docs/data-model.md) unless the table is made again.
 */
import * as v from 'valibot';
import * as S from './schemas.ts';

interface PlainField<In extends v.GenericSchema, Out extends v.GenericSchema, Shown extends 'public' | 'owner', Change extends boolean> {
  /** The shape a body's value is read by (its limits and messages). */
  input: In;
  /** The shape an answer shows (the document's). */
  answer: Out;
  /** A create's value when the body leaves it out. */
  initial: () => v.InferOutput<In>;
  /** Who sees it: every reader of a deck, or its owner alone. */
  shown: Shown;
  /** Whether a public deck's history names a change of it (contract §9.2: content, not how the owner files it). */
  publicChange: Change;
}
const field = <In extends v.GenericSchema, Out extends v.GenericSchema, Shown extends 'public' | 'owner', Change extends boolean>(
  f: PlainField<In, Out, Shown, Change>,
) => f;

export const PLAIN_FIELDS = {
  tags: field({ input: S.Tags, answer: v.array(v.string()), initial: () => [], shown: 'public', publicChange: true }),
  visibility: field({
    input: S.Visibility,
    answer: v.picklist(S.VISIBILITIES),
    initial: (): S.Visibility => 'private',
    shown: 'owner',
    publicChange: false,
  }),
  sort_order: field({ input: S.SortOrder, answer: v.pipe(v.number(), v.integer()), initial: () => 0, shown: 'owner', publicChange: false }),
} as const;

type Plain = typeof PLAIN_FIELDS;
export type PlainName = keyof Plain;
/** The plain fields' values, as a deck holds them. */
export type PlainValues = { -readonly [K in PlainName]: v.InferOutput<Plain[K]['input']> };
type PublicName = { [K in PlainName]: Plain[K]['shown'] extends 'public' ? K : never }[PlainName];
type PublicChangeName = { [K in PlainName]: Plain[K]['publicChange'] extends true ? K : never }[PlainName];

export const PLAIN_NAMES = Object.keys(PLAIN_FIELDS) as PlainName[];
/** The plain fields every reader sees. */
export const PUBLIC_PLAIN = PLAIN_NAMES.filter((k) => PLAIN_FIELDS[k].shown === 'public') as PublicName[];
/** The plain fields whose change a public deck's history names. */
export const PUBLIC_CHANGE_PLAIN = PLAIN_NAMES.filter((k) => PLAIN_FIELDS[k].publicChange) as PublicChangeName[];

const pick = <K extends PlainName>(d: Pick<PlainValues, K>, names: readonly K[]): Pick<PlainValues, K> =>
  Object.fromEntries(names.map((k) => [k, d[k]])) as Pick<PlainValues, K>;
/** A deck's plain fields (its owner's view). */
export const plainOf = (d: PlainValues): PlainValues => pick(d, PLAIN_NAMES);
/** A deck's plain fields every reader sees. */
export const publicPlainOf = (d: Pick<PlainValues, PublicName>): Pick<PlainValues, PublicName> => pick(d, PUBLIC_PLAIN);

/** A create's plain fields: each given, or its initial value. */
export const initialPlain = (given: Partial<PlainValues>): PlainValues =>
  Object.fromEntries(PLAIN_NAMES.map((k) => [k, given[k] ?? PLAIN_FIELDS[k].initial()])) as PlainValues;
/** A PATCH's plain fields: each given, or the current one. */
export const patchedPlain = (given: Partial<PlainValues>, current: PlainValues): PlainValues =>
  Object.fromEntries(PLAIN_NAMES.map((k) => [k, given[k] ?? current[k]])) as PlainValues;

/** The body shapes of the plain fields (a create, validate or PATCH body). */
export const PLAIN_INPUTS = Object.fromEntries(PLAIN_NAMES.map((k) => [k, PLAIN_FIELDS[k].input])) as {
  [K in PlainName]: Plain[K]['input'];
};
/** The answer shapes of the plain fields: the owner's, and every reader's. */
export const PLAIN_ANSWERS = Object.fromEntries(PLAIN_NAMES.map((k) => [k, PLAIN_FIELDS[k].answer])) as {
  [K in PlainName]: Plain[K]['answer'];
};
export const PUBLIC_PLAIN_ANSWERS = Object.fromEntries(PUBLIC_PLAIN.map((k) => [k, PLAIN_FIELDS[k].answer])) as {
  [K in PublicName]: Plain[K]['answer'];
};
