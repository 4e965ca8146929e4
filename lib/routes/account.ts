/** Keys and account (contract §9.4): an account's keys, its export and its erasure, by its own keys. */
import { ExportQuery } from '#shapes/queries.ts';
import { ACCOUNT } from '#store/items/account.ts';
import { DECK } from '#store/items/deck.ts';
import { LIKED } from '#store/items/like.ts';
import { erasing, keyChanging, keysClosing } from './grants.ts';
import { KeyId, UserId } from './params.ts';
import { accounts, type Declared, decks, routes } from './route.ts';

const KEYS = '/api/v1/users/{user_id}/keys';
const user = { user_id: UserId } as const;

export const ACCOUNT_ROUTES = routes({
  exportAccount: {
    // Everything an account owns (contract §9.4): its decks whole from its partition, the slugs it likes, the account.
    method: 'GET',
    path: '/api/v1/users/{user_id}/export',
    scope: 'decks:read',
    params: user,
    query: ExportQuery,
    catalogue: true,
    cursors: true,
    grants: [decks(['Query'], [DECK.grant, LIKED.grant]), accounts(['GetItem'], [ACCOUNT.grant])],
    summary: 'Export the account',
    description:
      "Everything the account owns, by pages: the account, its decks whole (guide.description and archive included; 25 a page, fewer when decks at their text limits would make the page over 2.5 MB; in id order, by cursor) and, on the first page, the share slugs it likes and its collection (copies by card_id: PUT it to /api/v1/users/{user_id}/collection of another account as `cards`) — for a key with the collection:read scope its own route asks; for any other key it is null and meta.left_out names it with the key scope it needs. A deck's deck_code and writable fields are exactly what create takes: POST each to /api/v1/users/{user_id}/decks of another account (or service) to rebuild the library.",
    tag: 'Keys and account',
    success: { status: 200, data: 'AccountExport', meta: 'ExportMeta' },
  } as const satisfies Declared,
  listKeys: {
    // An account's own keys (contract §9.4): ids from the account's index, each key read whole.
    method: 'GET',
    path: KEYS,
    scope: 'keys:manage',
    params: user,
    grants: [{ table: 'accounts', actions: ['Query'], indexes: ['keys_by_user'] }],
    summary: "The account's keys",
    description:
      "Newest first (the latest 100): each key's id, label, scopes, status (active, revoked, or expired past its expires_at) and dates — never a secret. A key made a moment ago may take a moment to be listed.",
    tag: 'Keys and account',
    success: { status: 200, data: 'KeyItem[]' },
  } as const satisfies Declared,
  createKey: {
    // A key made by a key: the account's list of live keys (the limit) and the key, in one transaction.
    method: 'POST',
    path: KEYS,
    scope: 'keys:manage',
    params: user,
    body: 'KeyBody',
    grants: keyChanging('PutItem'),
    summary: 'Make a key',
    description:
      'scopes: at least one, each a scope the calling key holds itself (asking for more is 403 insufficient_scope); label: up to 60 characters; expires_in_days: 1-365 (none: it does not expire). The secret (api_key) is shown in this answer only. At most 20 active keys per account (422, too_many).',
    tag: 'Keys and account',
    success: { status: 201, data: 'CreatedKey' },
  } as const satisfies Declared,
  revokeKey: {
    method: 'DELETE',
    path: `${KEYS}/{key_id}`,
    scope: 'keys:manage',
    params: { user_id: UserId, key_id: KeyId },
    body: 'EmptyBody',
    grants: keyChanging('UpdateItem'),
    summary: 'Revoke a key',
    description:
      'Body {}. The key stops working at once (the calling key may revoke itself). Revoking a revoked key again answers the same.',
    tag: 'Keys and account',
    success: { status: 200, data: 'RevokedKey' },
    errors: ['key_not_found'],
  } as const satisfies Declared,
  eraseAccount: {
    // An account's erasure (lib/account/erase.ts): its decks deleted, each with its entries, like counter and
    // view count (theirs, and other owners' slugs never: a deck's own), then its keys revoked; the rest is
    // the erasure worker's (lib/workers/erasure.ts).
    method: 'DELETE',
    path: '/api/v1/users/{user_id}',
    scope: 'account:delete',
    params: user,
    body: 'ErasureBody',
    grants: [...erasing, ...keysClosing],
    summary: 'Erase the account',
    description:
      'Body { "confirm": "<user_id>" } (anything else 422). Erases the account and everything it owns or gave: every deck with its search entries, counters, views, versions and likes received; every like it gave (the liked decks\' counts go down); its keys; its remembered answers (of Idempotency-Key requests); the account item. decks is how many decks the account had when its erasure began. From the answer on, every key of the account is 401 and every share slug of its decks 404; the rest is finished in the background within a minute. A request that fails (503) has begun the erasure: a repeat finishes it. Export first (GET /api/v1/users/{user_id}/export) to keep a copy.',
    tag: 'Keys and account',
    success: { status: 200, data: 'ErasedAccount' },
  } as const satisfies Declared,
});
