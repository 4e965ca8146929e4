/**
 * A player's own cards (contract §12.3): the collection a key's owner keeps, and what a deck still needs of it.
 * Owner routes (a key of the account; never cached at the edge: they read a key).
 */
import { MissingQuery } from '#shapes/queries.ts';
import { ACCOUNT } from '#store/items/account.ts';
import { UserId } from './params.ts';
import { accounts, type Declared, query, routes } from './route.ts';

const COLLECTION = '/api/v1/users/{user_id}/collection';
const user = { user_id: UserId } as const;
const ETAG =
  'The ETag is the collection\'s version ("<version>"): send it back as If-Match to change it safely (a collection changed since is 412).';

export const COLLECTION_ROUTES = routes({
  readCollection: {
    method: 'GET',
    path: COLLECTION,
    scope: 'collection:read',
    params: user,
    grants: [accounts(['GetItem'], [ACCOUNT.grant])],
    summary: "The account's collection",
    description: `The copies the account owns of each card (by card_id), its version and when it last changed; an account that has never kept one, an empty collection at version 0. ${ETAG}`,
    tag: 'Collection',
    success: { status: 200, data: 'Collection', headers: ['ETag'] },
  } as const satisfies Declared,
  putCollection: {
    method: 'PUT',
    path: COLLECTION,
    scope: 'collection:write',
    params: user,
    body: 'CollectionBody',
    catalogue: true,
    grants: [accounts(['GetItem', 'PutItem'], [ACCOUNT.grant])],
    summary: 'Replace the collection',
    description:
      "The whole collection, as `cards` (copies by card_id, 0 to 99: above a deck's limit is kept, as a player may own more) or as `text` (the game's text: `Nx NAME` lines, or decks' exports, names in any served language). Every card must be one that may stand in a deck (422 naming it otherwise). " +
      ETAG,
    tag: 'Collection',
    requestHeaders: ['If-Match'],
    success: { status: 200, data: 'Collection', headers: ['ETag'] },
    errors: ['precondition_failed'],
  } as const satisfies Declared,
  patchCollection: {
    method: 'PATCH',
    path: COLLECTION,
    scope: 'collection:write',
    params: user,
    body: 'CollectionPatch',
    catalogue: true,
    grants: [accounts(['GetItem', 'PutItem'], [ACCOUNT.grant])],
    summary: 'Add or remove copies',
    description:
      "`add` and `remove` (copies by card_id) and `add_text` and `remove_text` (the game's text): additions first (a card at most 99 copies: more is 422), then removals (removing more than owned leaves none). Two changes at once are both applied. A client that retries a change whose answer it lost should send If-Match with the version it read: a retry of a change that landed is then 412 (read the collection again), never applied twice; without If-Match a retried PATCH is a new change (no Idempotency-Key here). A change that leaves the collection as it was writes nothing: its version and ETag stay. " +
      ETAG,
    tag: 'Collection',
    requestHeaders: ['If-Match'],
    success: { status: 200, data: 'Collection', headers: ['ETag'] },
    errors: ['precondition_failed'],
  } as const satisfies Declared,
  readMissing: {
    method: 'GET',
    path: `${COLLECTION}/missing`,
    scope: 'collection:read',
    params: user,
    query: MissingQuery,
    exampleQuery: 'slug={share_slug}',
    catalogue: true,
    grants: [accounts(['GetItem'], [ACCOUNT.grant]), query('by_share_slug')],
    summary: 'What a deck still needs',
    description:
      "The copies of a deck's cards the collection lacks — `code` (a code in either form, a kards.com link, or the game's text export) or `slug` (a public or unlisted deck), one of the two — each with its name in the answer's language, their total by rarity and by nation, and whether the deck can be built now.",
    tag: 'Collection',
    success: { status: 200, data: 'MissingCards', headers: ['Content-Language', 'Vary'] },
    errors: ['deck_not_found', 'validation_failed'],
  } as const satisfies Declared,
});
