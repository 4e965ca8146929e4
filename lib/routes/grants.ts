/**
 * Grants several routes (or a route and a worker) share: what one kind of change touches, once. Item kinds
 * are named by their modules (lib/store/items/), never spelled here.
 */
import { ACCOUNT } from '#store/items/account.ts';
import { API_KEY } from '#store/items/api-key.ts';
import { DECK } from '#store/items/deck.ts';
import { ERASURE } from '#store/items/erasure.ts';
import { LIKE, LIKED } from '#store/items/like.ts';
import { LIKE_COUNT } from '#store/items/like-count.ts';
import { SEARCH_ENTRY } from '#store/items/search-entry.ts';
import { VERSION } from '#store/items/version.ts';
import { VIEW_COUNT } from '#store/items/view-count.ts';
import { accounts, decks, type Grant } from './route.ts';

// Views: a deck's stored count (view-counts.ts). Counting them is the access log's (lib/routes/workers.ts VIEW_SUBSCRIPTION).
export const viewing: Grant[] = [decks(['GetItem'], [VIEW_COUNT.grant])];

// A change of a deck: the deck read, then written with its new version and its entry changes in one
// transaction (a second when the entries overflow it: lib/store/decks.ts).
export const changing: Grant[] = [
  decks(['GetItem', 'UpdateItem', 'ConditionCheckItem'], [DECK.grant]),
  decks(['PutItem'], [VERSION.grant]),
  decks(['PutItem', 'DeleteItem'], [SEARCH_ENTRY.grant]),
];

// A change of an account's keys (store/accounts.ts changeKeys): the account's list of its live keys
// read and written under its version, with the key put (a create) or revoked (a revocation: its key
// updated), in one transaction. Neither may do the other's.
export const keyChanging = (key: 'PutItem' | 'UpdateItem'): Grant[] => [
  accounts(['GetItem', 'UpdateItem'], [ACCOUNT.grant]),
  accounts([key], [API_KEY.grant]),
];

// Likes: the deck checked, the like under the deck and under the account, the counter (likes.ts); folding
// them is the worker's. A like puts its two items, an unlike deletes them: neither may do the other's.
export const liking = (marks: 'PutItem' | 'DeleteItem'): Grant[] => [
  decks(['ConditionCheckItem', 'GetItem'], [DECK.grant]),
  decks([marks], [LIKE.grant, LIKED.grant]),
  decks(['GetItem', 'UpdateItem'], [LIKE_COUNT.grant]),
];

// An erasure's decks (lib/account/erase.ts, lib/workers/erasure.ts): the account's deck items counted, read
// and deleted, each with its search entries, its like counter and its view count in one transaction (store/decks.ts).
export const erasing: Grant[] = [
  decks(['Query', 'DeleteItem'], [DECK.grant]),
  decks(['DeleteItem'], [SEARCH_ENTRY.grant, LIKE_COUNT.grant, VIEW_COUNT.grant]),
];

// An erasure's item (store/erasures.ts), and the closing of the account's keys: the account marked,
// each key revoked, the keys found by the account's index (store/accounts.ts closeKeys).
export const keysClosing: Grant[] = [
  accounts(['GetItem', 'UpdateItem'], [ERASURE.grant]),
  accounts(['UpdateItem'], [ACCOUNT.grant, API_KEY.grant]),
  { table: 'accounts', actions: ['Query'], indexes: ['keys_by_user'] },
];
