/**
 * The route table: every route of the API, its Lambda entry and what it needs. The local server and
 * the CDK stack are both built from it, so they cannot drift. `grants` are the DynamoDB actions a
 * route's function may take, on which indexes or on which item kinds (leading key prefixes of
 * lib/store/items/); CDK turns them into the function's only permissions. Owner routes also read
 * API keys (`KEY#*` in accounts), and only they; cursor routes the cursor keys (`CURSORKEYS`).
 */
import type { Scope } from '#rules/scopes.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';
export type TableAction = 'GetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'ConditionCheckItem' | 'BatchWriteItem';

export interface Grant {
  table: 'decks' | 'accounts';
  actions: TableAction[];
  /** Query of an index: the indexes it may read (and nothing else). */
  indexes?: string[];
  /** Item actions, and queries of the table itself: the leading keys (pk prefixes) of the items it may touch. */
  keys?: string[];
}

export interface Route {
  name: string;
  method: Method;
  /** API Gateway path syntax: `{param}`; `$default` catches what no other route matches. */
  path: string;
  /** The handler module, relative to the project root; it exports `handler`. */
  entry: string;
  /** Required key scope; none for public routes. */
  scope?: Scope;
  /** Whether the route reads a JSON body. */
  body: boolean;
  /** Whether the function needs the card catalogue (it ships only with those that do). */
  catalogue: boolean;
  /** Whether it signs or opens list cursors (it then reads the cursor keys: CURSOR_KEYS_GRANT). */
  cursors?: boolean;
  /** Files (project-relative) shipped beside the function's bundle. */
  files?: readonly string[];
  /** Its memory (MB), where measured to need other than the default: 512 with the catalogue, 256 without. */
  memory?: number;
  grants: Grant[];
}

/** Every route's function timeout (s): Lambda ends an invocation there (lib/http/time-guard.ts answers 503 before it). */
export const FUNCTION_TIMEOUT_SECONDS = 10;

/** A route that takes no body but whose method may carry one: it refuses one (415), as its document says. */
export const refusesBody = (r: Pick<Route, 'method' | 'body'>): boolean => !r.body && ['PUT', 'POST', 'PATCH', 'DELETE'].includes(r.method);

const owner = '/api/v1/users/{user_id}/decks';
const likes = '/api/v1/users/{user_id}/likes/{share_slug}';
const versions = `${owner}/{deck_id}/versions`;
export const decks = (actions: TableAction[], keys: string[]): Grant => ({ table: 'decks', actions, keys });
export const query = (...indexes: string[]): Grant => ({ table: 'decks', actions: ['Query'], indexes });
// Views: a deck's stored count (view-buckets.ts). Counting them is the access log's (lib/workers.ts VIEW_SUBSCRIPTION).
const viewing = [decks(['GetItem'], ['VIEWS#*'])];
// A change of a deck: the deck read, then written with its new version and its entry changes in one
// transaction (a second when the entries overflow it: lib/store/decks.ts).
const changing = [
  decks(['GetItem', 'UpdateItem', 'ConditionCheckItem'], ['USER#*']),
  decks(['PutItem'], ['VERSION#*']),
  decks(['PutItem', 'DeleteItem'], ['SEARCH#*']),
];
const keys = '/api/v1/users/{user_id}/keys';
// A change of an account's keys (store/accounts.ts changeKeys): the account's record of its live keys
// read and written under its version, with the key put or revoked, in one transaction.
const keyChanging: Grant[] = [
  { table: 'accounts', actions: ['GetItem', 'UpdateItem'], keys: ['USER#*'] },
  { table: 'accounts', actions: ['PutItem', 'UpdateItem'], keys: ['KEY#*'] },
];
// Likes: the deck checked, the like under the deck and under the account, the counter (likes.ts); folding them is the worker's.
const liking = [
  decks(['ConditionCheckItem', 'GetItem'], ['USER#*']),
  decks(['PutItem', 'DeleteItem'], ['LIKE#*', 'LIKED#*']),
  decks(['GetItem', 'UpdateItem'], ['COUNT#*']),
];

// An erasure's decks (lib/account/erasure.ts): the account's deck items counted, read and deleted, each
// with its search entries, its like counter and its view count in one transaction (store/decks.ts).
export const erasing: Grant[] = [
  decks(['Query', 'DeleteItem'], ['USER#*']),
  decks(['DeleteItem'], ['SEARCH#*', 'COUNT#*']),
  decks(['UpdateItem'], ['VIEWS#*']),
];
// An erasure's record (store/erasures.ts), and the closing of the account's keys: the account marked,
// each key revoked, the keys found by the account's index (store/accounts.ts closeKeys).
export const keysClosing: Grant[] = [
  { table: 'accounts', actions: ['GetItem', 'UpdateItem'], keys: ['ERASE#*'] },
  { table: 'accounts', actions: ['UpdateItem'], keys: ['USER#*', 'KEY#*'] },
  { table: 'accounts', actions: ['Query'], indexes: ['keys_by_user'] },
];

export const ROUTES = [
  {
    name: 'listDecks',
    method: 'GET',
    path: owner,
    entry: 'functions/list-decks.ts',
    scope: 'decks:read',
    body: false,
    catalogue: false,
    cursors: true,
    grants: [query('by_owner_order')],
  },
  {
    name: 'readDeck',
    method: 'GET',
    path: `${owner}/{deck_id}`,
    entry: 'functions/read-deck.ts',
    scope: 'decks:read',
    body: false,
    // Stats and legality against the catalogue the service runs with now (contract §8.6).
    catalogue: true,
    grants: [decks(['GetItem'], ['USER#*'])],
  },
  {
    name: 'createDeck',
    method: 'POST',
    path: owner,
    entry: 'functions/create-deck.ts',
    scope: 'decks:write',
    body: true,
    catalogue: true,
    // The deck, its first version, its search entries and its Idempotency-Key record (one transaction); reading the record back.
    grants: [decks(['PutItem'], ['USER#*', 'VERSION#*', 'SEARCH#*', 'IDEMP#*']), decks(['GetItem'], ['IDEMP#*'])],
  },
  {
    name: 'updateDeck',
    method: 'PATCH',
    path: `${owner}/{deck_id}`,
    entry: 'functions/update-deck.ts',
    scope: 'decks:write',
    body: true,
    catalogue: true,
    grants: changing,
  },
  {
    name: 'validateDeck',
    method: 'POST',
    path: `${owner}/validate`,
    entry: 'functions/validate-deck.ts',
    scope: 'decks:write',
    body: true,
    catalogue: true,
    grants: [],
  },
  {
    name: 'replaceCards',
    method: 'POST',
    path: `${owner}/replace`,
    entry: 'functions/replace-cards.ts',
    scope: 'decks:write',
    body: true,
    catalogue: true,
    grants: [],
  },
  {
    name: 'deleteDeck',
    method: 'DELETE',
    path: `${owner}/{deck_id}`,
    entry: 'functions/delete-deck.ts',
    scope: 'decks:delete',
    body: true,
    catalogue: false,
    // The deck, its entries, its counter and its view count in one transaction; its likes are the worker's.
    grants: [decks(['GetItem'], ['USER#*']), decks(['DeleteItem'], ['USER#*', 'SEARCH#*', 'COUNT#*']), decks(['UpdateItem'], ['VIEWS#*'])],
  },
  {
    name: 'listDeckVersions',
    method: 'GET',
    path: versions,
    entry: 'functions/list-deck-versions.ts',
    scope: 'decks:read',
    body: false,
    catalogue: false,
    cursors: true,
    // One Query of the deck's versions; the deck read only when it has none (an unknown deck is 404).
    grants: [decks(['Query'], ['VERSION#*']), decks(['GetItem'], ['USER#*'])],
  },
  {
    name: 'readDeckVersion',
    method: 'GET',
    path: `${versions}/{version}`,
    entry: 'functions/read-deck-version.ts',
    scope: 'decks:read',
    body: false,
    // Stats and legality against the catalogue the service runs with now (contract §8.6).
    catalogue: true,
    // The version, and the versions its unchanged texts are held by; the deck read only when the version is not kept.
    grants: [decks(['GetItem'], ['VERSION#*', 'USER#*'])],
  },
  {
    name: 'restoreDeckVersion',
    method: 'POST',
    path: `${versions}/{version}/restore`,
    entry: 'functions/restore-deck-version.ts',
    scope: 'decks:write',
    body: true,
    // Judged by today's rules and catalogue, as a PATCH is.
    catalogue: true,
    grants: [decks(['GetItem'], ['VERSION#*']), ...changing],
  },
  {
    name: 'likeDeck',
    method: 'PUT',
    path: likes,
    entry: 'functions/like-deck.ts',
    scope: 'decks:write',
    body: false,
    catalogue: false,
    grants: [query('by_share_slug'), ...liking],
  },
  {
    name: 'unlikeDeck',
    method: 'DELETE',
    path: likes,
    entry: 'functions/unlike-deck.ts',
    scope: 'decks:write',
    body: false,
    catalogue: false,
    grants: [query('by_share_slug'), ...liking],
  },
  {
    name: 'searchDecks',
    method: 'GET',
    path: '/api/v1/decks',
    entry: 'functions/search-decks.ts',
    body: false,
    // Card filters name cards of the catalogue (contract §8.5).
    catalogue: true,
    cursors: true,
    grants: [query('search_by_date', 'search_by_views', 'search_by_likes')],
  },
  {
    name: 'diffDecks',
    method: 'GET',
    // Static, so it wins over /api/v1/decks/{share_slug} (API Gateway's precedence; "diff" is no share slug).
    path: '/api/v1/decks/diff',
    entry: 'functions/diff-decks.ts',
    body: false,
    // Both decks' stats against the catalogue the service runs with now (contract §8.6); decks by share slug.
    catalogue: true,
    grants: [query('by_share_slug')],
  },
  {
    name: 'listSharedVersions',
    method: 'GET',
    path: '/api/v1/decks/{share_slug}/versions',
    entry: 'functions/list-shared-versions.ts',
    body: false,
    catalogue: false,
    cursors: true,
    grants: [query('by_share_slug'), decks(['Query'], ['VERSION#*'])],
  },
  {
    name: 'readSharedDeck',
    method: 'GET',
    path: '/api/v1/decks/{share_slug}',
    entry: 'functions/read-shared-deck.ts',
    body: false,
    catalogue: true,
    grants: [query('by_share_slug'), ...viewing],
  },
  {
    name: 'listCards',
    method: 'GET',
    path: '/api/v1/cards',
    entry: 'functions/list-cards.ts',
    body: false,
    catalogue: true,
    cursors: true,
    grants: [],
  },
  {
    name: 'readCard',
    method: 'GET',
    path: '/api/v1/cards/{card_id}',
    entry: 'functions/read-card.ts',
    body: false,
    catalogue: true,
    grants: [],
  },
  {
    name: 'openApi',
    method: 'GET',
    path: '/api/v1/openapi.json',
    entry: 'functions/openapi.ts',
    body: false,
    catalogue: false,
    grants: [],
  },
  {
    name: 'readDeckOtk',
    method: 'GET',
    path: `${owner}/{deck_id}/otk`,
    entry: 'functions/read-deck-otk.ts',
    scope: 'decks:read',
    body: false,
    catalogue: false,
    grants: [decks(['GetItem'], ['USER#*'])],
  },
  {
    name: 'readSharedOtk',
    method: 'GET',
    path: '/api/v1/decks/{share_slug}/otk',
    entry: 'functions/read-shared-otk.ts',
    body: false,
    catalogue: false,
    grants: [query('by_share_slug')],
  },
  {
    // The share page people open (contract §9.3): a view, counted as the JSON read's (lib/workers.ts VIEW_SUBSCRIPTION).
    name: 'readSharePage',
    method: 'GET',
    path: '/d/{share_slug}',
    entry: 'functions/share-page.ts',
    body: false,
    catalogue: true,
    grants: [query('by_share_slug')],
  },
  {
    // The deck image unfurlers show (contract §9.3): drawn in the function with the renderer and font it ships.
    name: 'readDeckImage',
    method: 'GET',
    path: '/api/v1/decks/{share_slug}/image.png',
    entry: 'functions/deck-image.ts',
    body: false,
    catalogue: true,
    files: [
      'node_modules/@resvg/resvg-wasm/index_bg.wasm',
      'node_modules/@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf',
      'node_modules/@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf',
    ],
    memory: 1024,
    grants: [query('by_share_slug')],
  },
  {
    // Everything an account owns (contract §9.4): its decks whole from its partition, the slugs it likes, the account.
    name: 'exportAccount',
    method: 'GET',
    path: '/api/v1/users/{user_id}/export',
    entry: 'functions/export-account.ts',
    scope: 'decks:read',
    body: false,
    catalogue: true,
    cursors: true,
    grants: [decks(['Query'], ['USER#*', 'LIKED#*']), { table: 'accounts', actions: ['GetItem'], keys: ['USER#*'] }],
  },
  {
    // An account's own keys (contract §9.4): ids from the account's index, each key read whole.
    name: 'listKeys',
    method: 'GET',
    path: keys,
    entry: 'functions/list-keys.ts',
    scope: 'keys:manage',
    body: false,
    catalogue: false,
    grants: [{ table: 'accounts', actions: ['Query'], indexes: ['keys_by_user'] }],
  },
  {
    // A key made by a key: the account's record of live keys (the limit) and the key, in one transaction.
    name: 'createKey',
    method: 'POST',
    path: keys,
    entry: 'functions/create-key.ts',
    scope: 'keys:manage',
    body: true,
    catalogue: false,
    grants: keyChanging,
  },
  {
    name: 'revokeKey',
    method: 'DELETE',
    path: `${keys}/{key_id}`,
    entry: 'functions/revoke-key.ts',
    scope: 'keys:manage',
    body: true,
    catalogue: false,
    grants: keyChanging,
  },
  {
    // An account's erasure (lib/account/erasure.ts): its decks deleted, each with its entries, like
    // counter and view count (theirs, and other owners' slugs never: a deck's own), then its keys revoked;
    // the rest is the erasure worker's (lib/workers.ts).
    name: 'eraseAccount',
    method: 'DELETE',
    path: '/api/v1/users/{user_id}',
    entry: 'functions/erase-account.ts',
    scope: 'account:delete',
    body: true,
    catalogue: false,
    grants: [...erasing, ...keysClosing],
  },
  {
    name: 'docsPage',
    method: 'GET',
    path: '/api/v1/docs',
    entry: 'functions/docs-page.ts',
    body: false,
    catalogue: false,
    grants: [],
  },
  {
    name: 'docsAsset',
    method: 'GET',
    path: '/api/v1/docs/{asset}',
    entry: 'functions/docs-asset.ts',
    body: false,
    catalogue: false,
    files: ['node_modules/@scalar/api-reference/dist/browser/standalone.js'],
    grants: [],
  },
  { name: 'notFound', method: 'ANY', path: '$default', entry: 'functions/not-found.ts', body: false, catalogue: false, grants: [] },
] as const satisfies readonly Route[];

export type RouteName = (typeof ROUTES)[number]['name'];

export function routeByName(name: RouteName): Route {
  return ROUTES.find((r) => r.name === name) as Route;
}

/** A route's key as API Gateway names it (`$context.routeKey`): `GET /api/v1/decks/{share_slug}`, or `$default`. */
export const routeKey = (route: Route): string => (route.path === '$default' ? '$default' : `${route.method} ${route.path}`);

const PARAM = /\{(\w+)\}/g;
/** A route path's parameters, and how to read them from a request path as API Gateway does (a segment each, URL-decoded). */
export function pathMatcher(routePath: string): { names: string[]; match: (path: string) => Record<string, string> | undefined } {
  const names = [...routePath.matchAll(PARAM)].map((m) => m[1] as string);
  const pattern = new RegExp(`^${routePath.replace(PARAM, '([^/]+)')}$`);
  return {
    names,
    match(path) {
      const found = pattern.exec(path);
      if (!found) return undefined;
      const params: Record<string, string> = {};
      names.forEach((name, i) => {
        const raw = found[i + 1] as string;
        try {
          params[name] = decodeURIComponent(raw);
        } catch {
          params[name] = raw;
        }
      });
      return params;
    },
  };
}

/** The grant every owner route has: reading API keys (auth). */
export const AUTH_GRANT: Grant = { table: 'accounts', actions: ['GetItem'], keys: ['KEY#*'] };
/** The grant every cursor route has: reading the cursor keys, and making them when there are none yet (lib/store/cursor-keys.ts). */
export const CURSOR_KEYS_GRANT: Grant = { table: 'accounts', actions: ['GetItem', 'PutItem'], keys: ['CURSORKEYS'] };

/** Whatever runs with grants: a route's function, or a worker (lib/workers.ts). */
export interface Grantee {
  name: string;
  scope?: Scope;
  cursors?: boolean;
  grants: readonly Grant[];
}

export const grantsOf = (who: Grantee): Grant[] => [
  ...(who.scope ? [AUTH_GRANT] : []),
  ...(who.cursors ? [CURSOR_KEYS_GRANT] : []),
  ...who.grants,
];

/** A route's throttle class: reads (GET) and writes (the rest, throttled more strictly; settings in infra). */
export const throttleClass = (route: Route): 'read' | 'write' => (route.method === 'GET' ? 'read' : 'write');

/**
 * CORS for every route (contract §8.3), one definition: the CDK stack's `corsPreflight` and the local
 * runtime's answers to preflights and cross-origin requests are both made from it.
 */
export const CORS = {
  allowOrigins: ['*'],
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  allowHeaders: ['authorization', 'content-type', 'if-match', 'if-none-match', 'idempotency-key'],
  exposeHeaders: ['etag', 'location', 'retry-after', 'x-request-id', 'idempotent-replayed'],
  maxAgeSeconds: 600,
} as const;
