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
 * false` — the owner list's items leave it out, and the deck's own reads (owner, public, export) show it — unless the
 * table is made again.
 */
import * as v from 'valibot';
import * as S from './schemas.ts';

interface PlainField<
  In extends v.GenericSchema,
  Out extends v.GenericSchema,
  Shown extends 'public' | 'owner',
  Change extends boolean,
  Listed extends boolean,
> {
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
  /** Whether the owner list's index holds it (then its items show it; else only the deck's own reads do: see above). */
  listed: Listed;
}
const field = <
  In extends v.GenericSchema,
  Out extends v.GenericSchema,
  Shown extends 'public' | 'owner',
  Change extends boolean,
  Listed extends boolean,
>(
  f: PlainField<In, Out, Shown, Change, Listed>,
) => f;

export const PLAIN_FIELDS = {
  tags: field({ input: S.Tags, answer: v.array(v.string()), initial: () => [], shown: 'public', publicChange: true, listed: true }),
  visibility: field({
    input: S.Visibility,
    answer: v.picklist(S.VISIBILITIES),
    initial: (): S.Visibility => 'private',
    shown: 'owner',
    publicChange: false,
    listed: true,
  }),
  sort_order: field({
    input: S.SortOrder,
    answer: v.pipe(v.number(), v.integer()),
    initial: () => 0,
    shown: 'owner',
    publicChange: false,
    listed: true,
  }),
} as const;

type Plain = typeof PLAIN_FIELDS;
export type PlainName = keyof Plain;
/** The plain fields' values, as a deck holds them. */
export type PlainValues = { -readonly [K in PlainName]: v.InferOutput<Plain[K]['input']> };
export type PublicName = { [K in PlainName]: Plain[K]['shown'] extends 'public' ? K : never }[PlainName];
type PublicChangeName = { [K in PlainName]: Plain[K]['publicChange'] extends true ? K : never }[PlainName];
type ListedName = { [K in PlainName]: Plain[K]['listed'] extends true ? K : never }[PlainName];
/** The plain fields the owner list's index does not hold. */
export type UnlistedName = Exclude<PlainName, ListedName>;

export const PLAIN_NAMES = Object.keys(PLAIN_FIELDS) as PlainName[];
/** The plain fields' values every reader sees. */
export type PublicPlainValues = Pick<PlainValues, PublicName>;
/** The plain fields every reader sees. */
export const PUBLIC_PLAIN = PLAIN_NAMES.filter((k) => PLAIN_FIELDS[k].shown === 'public') as PublicName[];
/** The plain fields the owner list's index holds, and those it does not. */
export const LISTED_PLAIN = PLAIN_NAMES.filter((k) => PLAIN_FIELDS[k].listed) as ListedName[];
const UNLISTED_PLAIN = PLAIN_NAMES.filter((k) => !PLAIN_FIELDS[k].listed) as UnlistedName[];
/** The plain fields whose change a public deck's history names. */
export const PUBLIC_CHANGE_PLAIN = PLAIN_NAMES.filter((k) => PLAIN_FIELDS[k].publicChange) as PublicChangeName[];

/** The fields `names` of `d`; one an item stored before it existed has (undefined) is its initial value. */
const pick = <K extends PlainName>(d: Partial<Pick<PlainValues, K>>, names: readonly K[]): Pick<PlainValues, K> =>
  Object.fromEntries(names.map((k) => [k, d[k] === undefined ? PLAIN_FIELDS[k].initial() : d[k]])) as Pick<PlainValues, K>;
/** A deck's plain fields (its owner's view). */
export const plainOf = (d: PlainValues): PlainValues => pick(d, PLAIN_NAMES);
/** A deck's plain fields every reader sees. */
export const publicPlainOf = (d: Partial<PublicPlainValues>): PublicPlainValues => pick(d, PUBLIC_PLAIN);
/** The plain fields an owner list item shows, and those only the deck's own reads show. */
export const listedPlainOf = (d: Partial<Pick<PlainValues, ListedName>>): Pick<PlainValues, ListedName> => pick(d, LISTED_PLAIN);
export const unlistedPlainOf = (d: Partial<Pick<PlainValues, UnlistedName>>): Pick<PlainValues, UnlistedName> => pick(d, UNLISTED_PLAIN);

/** A create's plain fields: each the body gives (null included), or its initial value. */
export const initialPlain = (given: Partial<PlainValues>): PlainValues =>
  Object.fromEntries(PLAIN_NAMES.map((k) => [k, Object.hasOwn(given, k) ? given[k] : PLAIN_FIELDS[k].initial()])) as PlainValues;
/** A PATCH's plain fields: each the body gives (null included), or the current one. */
export const patchedPlain = (given: Partial<PlainValues>, current: PlainValues): PlainValues => {
  const kept = plainOf(current);
  return Object.fromEntries(PLAIN_NAMES.map((k) => [k, Object.hasOwn(given, k) ? given[k] : kept[k]])) as PlainValues;
};

/** The body shapes of the plain fields (a create, validate or PATCH body). */
export const PLAIN_INPUTS = Object.fromEntries(PLAIN_NAMES.map((k) => [k, PLAIN_FIELDS[k].input])) as {
  [K in PlainName]: Plain[K]['input'];
};
/** The answer shapes of `names`: all of them (the owner's), those an owner list item shows, the rest, every reader's. */
const answersOf = <K extends PlainName>(names: readonly K[]) =>
  Object.fromEntries(names.map((k) => [k, PLAIN_FIELDS[k as PlainName].answer])) as { [P in K]: Plain[P]['answer'] };
export const PLAIN_ANSWERS = answersOf(PLAIN_NAMES);
export const LISTED_PLAIN_ANSWERS = answersOf(LISTED_PLAIN);
export const UNLISTED_PLAIN_ANSWERS = answersOf(UNLISTED_PLAIN);
export const PUBLIC_PLAIN_ANSWERS = answersOf(PUBLIC_PLAIN);
