/**
 * Path parameters, each declared once (as a route declares its query): its pattern and an example for the
 * document, and how the route layer reads it before the endpoint runs. A value that does not parse names
 * nothing: the route answers its own 404 (`missing`), as for an unknown value. Pure: no HTTP, no store.
 */
import { BULK_FILES, BULK_TYPES, type BulkType, bulkTypeOf } from '#rules/bulk.ts';
import { CARD_ID } from '#rules/card.ts';
import { ARCHETYPE_ID_FORM, DELIVERY_ID, KEY_ID_FORM, SHARE_SLUG, URL_CODE, UUID, VERSION_NUMBER } from '#rules/ids.ts';
import type { ErrorCode } from '#shapes/errors.ts';

export interface PathParam<T = string> {
  /** The pattern a well-formed value matches (a JSON Schema / OpenAPI `pattern`). */
  pattern: string;
  example: string;
  description: string;
  /** The 404 a value that does not parse answers (as an unknown one does); none when any value goes on (the route decides). */
  missing?: { code: Extract<ErrorCode, `${string}not_found`>; message: string };
  /** The value, or undefined when it is malformed. */
  parse: (raw: string) => T | undefined;
}

const NO_SUCH_DECK = { code: 'deck_not_found', message: 'no such deck' } as const;

/**
 * A parameter whose well-formed values are the strings its form matches, as they are. Each is made `@__PURE__`: a
 * function's bundle keeps only the parameters its routes name (esbuild drops an unused call only when told it is pure).
 */
const formed = (form: RegExp, about: Omit<PathParam, 'pattern' | 'parse'>): PathParam => ({
  pattern: form.source,
  ...about,
  parse: (raw) => (form.test(raw) ? raw : undefined),
});

export const ShareSlug = /* @__PURE__ */ formed(SHARE_SLUG, {
  example: 'Xq3vT9pLmA2c',
  description: 'A public or unlisted deck: its share_slug (from search, or the owner deck), never its id.',
  missing: NO_SUCH_DECK,
});

export const UserId: PathParam = {
  pattern: UUID.source,
  example: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
  description: "The key's account (any other is 403 user_mismatch).",
  // Auth compares it with the key's account: a malformed one is a mismatch, not a 404.
  parse: (raw) => raw,
};

export const DeckId = /* @__PURE__ */ formed(UUID, {
  example: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
  description: "One of the caller's decks: its id.",
  missing: NO_SUCH_DECK,
});

export const EventId = /* @__PURE__ */ formed(UUID, {
  example: '6c1f0e7a-2b9d-4f3e-8a51-0d4c7b2e9f18',
  description: 'An event: its event_id (from its creation).',
  missing: { code: 'not_found', message: 'no such event' },
});

export const Version: PathParam<number> = {
  pattern: VERSION_NUMBER.source,
  example: '2',
  description: 'A version of the deck (1 is its creation).',
  missing: { code: 'version_not_found', message: 'no such version of this deck is kept' },
  parse: (raw) => (VERSION_NUMBER.test(raw) ? Number(raw) : undefined),
};

export const KeyId = /* @__PURE__ */ formed(KEY_ID_FORM, {
  example: 'a1B2c3D4e5F6g7H8',
  description: 'One of the account\'s keys: its key_id (the part of the key between "dlk_" and its secret).',
  missing: { code: 'key_not_found', message: 'this account has no key of that id' },
});

const NO_SUCH_WEBHOOK = { code: 'not_found', message: 'this account has no webhook of that id' } as const;
export const WebhookId = /* @__PURE__ */ formed(UUID, {
  example: '0e5c7a52-9f3d-4b8e-a1c6-2d4f6b8e0a13',
  description: "One of the account's webhooks: its webhook_id.",
  missing: NO_SUCH_WEBHOOK,
});

export const DeliveryId = /* @__PURE__ */ formed(DELIVERY_ID, {
  example: 'msg_0mfk3x9a21f4c9e07b3d2a6e8',
  description: "One of the webhook's deliveries: its delivery_id (its webhook-id header).",
  missing: { code: 'not_found', message: 'this webhook has no delivery of that id' },
});

export const CardId = /* @__PURE__ */ formed(CARD_ID, {
  example: '2H',
  description: "A card of the catalogue: its card_id (the deck code's 2-character id for every deckable card).",
  missing: { code: 'card_not_found', message: 'no such card in the catalogue' },
});

/** The 404 of an archetype no public deck has (or an id of no archetype's form). */
export const NO_SUCH_ARCHETYPE = { code: 'not_found', message: 'no such archetype among the public decks' } as const;

export const ArchetypeId = /* @__PURE__ */ formed(ARCHETYPE_ID_FORM, {
  example: 'soviet-grey-rifles-thistle',
  description: "An archetype: its id (a rule's of the rules in use, or a cluster's: `cluster-…`), as a deck's archetype names it.",
  missing: NO_SUCH_ARCHETYPE,
});

export const Asset = /* @__PURE__ */ formed(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, {
  example: 'scalar.js',
  description: 'A script of the reference page: scalar.js, or a module it imports.',
  missing: { code: 'not_found', message: 'no such asset of the docs page' },
});

export const Code: PathParam = {
  pattern: URL_CODE.source,
  example: '45---2H-2B2C2D2E2F2G38393a',
  description:
    'A KARDS deck code in its URL form (factions, then the four groups, joined by "-"), or the %%…|…;… form URL-encoded: any other spelling of the deck answers 308 to its canonical URL form. One that does not parse is 400, saying what is wrong and at which offset.',
  // Any text goes on: the route reads it as a code, and says what is wrong with it (400) or where its canonical form is (308).
  parse: (raw) => raw,
};

/** What a parameter gives the endpoint. */
export type ParsedOf<P> = P extends PathParam<infer T> ? T : never;

/** A bulk file of the listing: its type or its id (lib/rules/bulk.ts BULK_FILES), as Scryfall's /bulk-data/{id|type}. */
export const BulkId: PathParam<BulkType> = {
  pattern: `^(?:${BULK_TYPES.join('|')}|${BULK_TYPES.map((t) => BULK_FILES[t].id).join('|')})$`,
  example: 'decks',
  description: `A bulk file's type (${BULK_TYPES.join(', ')}) or its id.`,
  missing: { code: 'not_found', message: 'no such bulk file' },
  parse: bulkTypeOf,
};
