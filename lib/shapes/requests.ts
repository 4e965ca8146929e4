/**
 * The request bodies, as the document declares them: each is the schema the rules check a body with
 * (lib/rules: the writable fields of a deck, FIELDS, and the replace body, declared with the rules
 * that parse them) — so what the document promises is what a request is held to. Query parameters:
 * queries.ts.
 */
import * as v from 'valibot';
import { FIELDS } from '#rules/deck-write.ts';
import { LIMITS } from '#rules/limits.ts';

export { CollectionBody, CollectionPatch } from '#rules/collection.ts';
export { ErasureBody } from '#rules/erasure.ts';
export { KeyBody } from '#rules/keys.ts';
export { ReplaceBody } from '#rules/schemas.ts';

const { deck_code, guide, ...rest } = FIELDS;
const optional = Object.fromEntries(Object.entries(rest).map(([k, schema]) => [k, v.optional(schema)])) as {
  [K in keyof typeof rest]: v.OptionalSchema<(typeof rest)[K], undefined>;
};
/** The game's text export of a deck (contract §11.3), in place of deck_code in a create or validate body. */
const deck_text = v.pipe(
  v.string(),
  v.maxLength(LIMITS.deckTextChars),
  v.description(
    "The game's text export of the deck, in place of deck_code: a name line, `Major power: …`, `Ally: …`, a nation's header per nation and `Nx (kK) NAME` per card, names in any served language, optionally the %% code (which must agree). A line that names no card is invalid_deck_code, naming the line.",
  ),
);
/** A create or validate body: the writable fields, deck_code (or deck_text) and guide required. */
export const CreateBody = v.union([v.strictObject({ deck_code, guide, ...optional }), v.strictObject({ deck_text, guide, ...optional })]);
/** A PATCH body: any of the writable fields, at least one. */
export const PatchBody = v.pipe(
  v.partial(v.strictObject(FIELDS)),
  v.check((b) => Object.keys(b).length > 0),
  v.metadata({ minProperties: 1 }),
);
export const EmptyBody = v.strictObject({});
