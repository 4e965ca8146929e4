/**
 * What a route is: one declaration carries everything a client sees of it and everything it needs to run
 * (as @hono/zod-openapi's `createRoute` carries a route's request and answers). Method, path, scope, path
 * parameters (params.ts), query, body, success (status, media type, data, headers, 304), errors; its
 * handler module, its grants, the files it ships, its memory. CDK, the local runtime, IAM (grants), the
 * OpenAPI document and the tests' route lists all read it; the compiler holds each endpoint to it
 * (lib/http/types.ts). `grants` are the DynamoDB actions a route's function may take, on which indexes or
 * on which item kinds (each item module's `grant`: lib/store/items/kind.ts); owner routes also read API keys and only they,
 * cursor routes the cursor keys.
 */
import type * as v from 'valibot';
import type { Scope } from '#rules/scopes.ts';
import type { ErrorCode } from '#shapes/errors.ts';
import type { ShapeName } from '#shapes/named.ts';
import { API_KEY } from '#store/items/api-key.ts';
import { CATALOGUE } from '#store/items/catalogue.ts';
import { CURSOR_KEYS } from '#store/items/cursor-keys.ts';
import type { DecksIndex, IndexName } from '#store/tables.ts';
import type { Lifetime } from './cache-lifetimes.ts';
import type { PathParam } from './params.ts';

/** What a raw body is (Route.rawBody). */
export type RawBody = 'text/plain' | 'signed-json';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem'
  | 'BatchWriteItem'
  | 'Scan';

export interface Grant {
  table: 'decks' | 'accounts';
  actions: TableAction[];
  /** Query of an index: the indexes it may read (and nothing else). */
  indexes?: IndexName[];
  /** Item actions, and queries of the table itself: the leading keys (pk prefixes) of the items it may touch. */
  leadingKeys?: string[];
}

export type ResponseHeader =
  | 'ETag'
  | 'Location'
  | 'Cache-Control'
  | 'Idempotent-Replayed'
  | 'Content-Security-Policy'
  | 'X-Frame-Options'
  | 'Content-Encoding'
  | 'Vary'
  | 'Content-Language';
export type RequestHeader = 'If-Match' | 'If-None-Match' | 'Idempotency-Key';
/** The document's tags, in its order, each with its description: a route's `tag` is one of them (the compiler checks). */
export const TAGS = {
  'Owner decks': "A key's own decks: list, read, create, update, validate, replace cards, delete.",
  Likes: 'One like per account per public or unlisted deck.',
  'Public decks': 'No key: search public decks, read a public or unlisted deck by its share slug.',
  'Deck codes':
    "No key, no account, nothing stored: any KARDS deck code — its facts for a bot, its image and its page for people and link previews, the game's text export out and in.",
  Discord: "Discord's interactions endpoint of the Deck Library application: /deck and /card answered in Discord, signed by Discord.",
  Meta: 'No key: what the public decks play — cards by faction, ally or the whole library, faction pairs, tags — and the bulk files of every public deck.',
  'Keys and account': "A key's account: its keys, made and revoked by their owner.",
  Collection: "A key's account's own cards: the copies it owns, and what a deck still needs of them.",
  Events:
    "Tournaments: an organizer's event, the decks its players submit — checked against its format and card pool, locked at the deadline — and its lists.",
  Webhooks:
    "An account's webhook endpoints: decks published, changed or unpublished, and the catalogue, delivered as they happen — signed as Standard Webhooks 1.0 says, retried, logged and replayable; a Discord channel's webhook gets the deck's embed.",
  Cards: 'The card catalogue: where card_id values come from, and the languages it names them in.',
  Reference: 'This document.',
} as const;
export type Tag = keyof typeof TAGS;
export type QuerySchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

export interface Success {
  status: 200 | 201;
  /** The `data` shape (its name: lib/shapes/named.ts); or, with `bare`, the whole body. */
  data: ShapeName;
  meta?: ShapeName;
  bare?: boolean;
  headers?: ResponseHeader[];
  /** Answers 304 to a matching If-None-Match. */
  conditional?: boolean;
  /** Its media type, when not JSON (pages, the docs page's script, images). */
  contentType?: string;
}

/** Whatever runs with grants: a route's function, or a worker (lib/workers/). */
/** A font a route ships cut to the names of its languages. */
export interface SubsetFont {
  file: string;
  languages: readonly string[];
}

export interface Grantee {
  name: string;
  scope?: Scope;
  /**
   * A public route that takes a key for part of what it answers (search's `buildable_by`): the key is checked by
   * the endpoint, for this scope, when that part is asked; the route reads keys (AUTH_GRANT) and never caches.
   */
  keyFor?: Scope;
  cursors?: boolean;
  /** It uses the card catalogue: it ships one, and reads the published one (CATALOGUE_GRANT). */
  catalogue?: true;
  grants: readonly Grant[];
  /**
   * What it does with the bulk files' bucket (contract §12.2), under its folder (lib/rules/bulk.ts BULK_FOLDER): `write`
   * streams files into it (PutObject and the multipart upload's calls), `link` signs links to them (GetObject: a
   * presigned URL is the signer's request). It gets BULK_BUCKET, and PUBLIC_URL.
   */
  objects?: 'write' | 'link';
  /** It sends to the webhook deliveries' queue (sqs:SendMessage on it; DELIVERIES_QUEUE_URL: lib/webhooks/queue.ts). */
  deliveries?: true;
}

export interface Route extends Grantee {
  name: string;
  method: Method;
  /** API Gateway path syntax: `{param}`; `$default` catches what no other route matches. */
  path: string;
  /** The handler module, relative to the project root; it exports `handler`. */
  handler: string;
  /** Required key scope; none for public routes. */
  scope?: Scope;
  /** Each `{param}` of the path: its declaration (params.ts), parsed before the endpoint runs. */
  params?: Readonly<Record<string, PathParam<unknown>>>;
  /** The query's schema (lib/shapes/queries.ts): parsed before the endpoint runs; its first bad parameter is 400. */
  query?: QuerySchema;
  /** The JSON body's shape (its name: lib/shapes/named.ts), when the route reads one; its rules check it (lib/rules). */
  body?: ShapeName;
  /**
   * A body the endpoint reads itself, given as its bytes (lib/http/body.ts rawBody), at most 128 KiB: `text/plain`
   * (the game's text export: another media type is 415), or `signed-json` (a Discord interaction: JSON whose
   * signature the endpoint checks over these very bytes before it reads them; nothing is checked before).
   */
  rawBody?: RawBody;
  /** The function needs the card catalogue (it ships only with those that do, and only they read the published one). */
  catalogue?: true;
  /** Whether it signs or opens list cursors (it then reads the cursor keys: CURSOR_KEYS_GRANT). */
  cursors?: boolean;
  /** Files (project-relative) shipped beside the function's bundle. */
  files?: readonly string[];
  /**
   * Fonts (project-relative) shipped beside the bundle, each cut to the characters of the catalogue's card
   * names and the faction names in its languages (scripts/subset-fonts.ts, at synth); where nothing is
   * synthesised, whole.
   */
  subsetFonts?: readonly SubsetFont[];
  /** Its memory (MB), where measured to need other than the default: 512 with the catalogue, 256 without. */
  memory?: number;
  grants: readonly Grant[];
  // What the published contract says of it (the fallback route has none of these).
  summary?: string;
  description?: string;
  tag?: Tag;
  success?: Success;
  requestHeaders?: readonly RequestHeader[];
  /** Errors this route answers beyond those every route of its kind answers. */
  errors?: readonly ErrorCode[];
  /**
   * A page for people: its errors of these statuses answer an HTML page saying what is wrong, not the
   * envelope (a slug no one may see: 404; a code that does not parse, or a bad query: 400).
   */
  htmlErrors?: readonly HtmlErrorStatus[];
  /**
   * Its path parameter has one canonical form (a deck code: lib/rules/url-code.ts): a request by any other
   * answers 308 to the same route with the canonical form, query kept, so that caches hold one copy.
   */
  redirects?: true;
  /**
   * The query of a request it answers with its success, where it needs one (a parameter it requires): each
   * `{name}` in it filled as the path's parameters are (exampleRequest). The HEAD, faults and bench requests are
   * built from it, so that a route with a new parameter or a required query needs nothing added there.
   */
  exampleQuery?: string;
  /**
   * Burns CPU on input anyone can vary (an image of any deck code): its function's concurrency is reserved
   * as a cap and its route has the capped throttle (infra/settings.ts; docs/operations.md: a flood's cost).
   */
  capped?: true;
  /**
   * The edge may keep its answers (contract §11.2: the CloudFront distribution, infra/constructs/edge.ts;
   * locally infra/local/edge.ts) as their Cache-Control says, keyed by its path, its declared query
   * parameters and the reader's language (and host): it reads no key, counts no view and answers the same to
   * every reader of that language. Every other route is never cached.
   */
  edge?: 'cached';
  /**
   * Its answers' lifetime (Cache-Control, cache-lifetimes.ts) on a 200 or 304 that sets none itself: declared beside
   * `edge: 'cached'`, as how long the edge keeps them.
   */
  cache?: Lifetime;
}

/** The statuses a page for people may answer as a page. */
export type HtmlErrorStatus = 400 | 404;

/** A route of the API: documented (every route but the fallback). */
export interface ApiRoute extends Route {
  summary: string;
  tag: Tag;
  success: Success;
}

/** A route as its group declares it: its name is its key in the group (`routes`), its handler module follows from the name. */
export type Declared<R extends Route = ApiRoute> = Omit<R, 'name' | 'handler'>;

/** The handler module of a route or worker of that name: functions/<its name in kebab case>.ts (a worker's ends `-worker`). */
export const handlerOf = (name: string, suffix = ''): string =>
  `functions/${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}${suffix}.ts`;

/**
 * A group's routes, each declared under its name once: the name is the key (what a log line, the document's
 * operationId and a test find it by), the handler module follows from it (handlerOf).
 */
export function routes<const T extends Readonly<Record<string, Declared<Route>>>>(
  declared: T,
): { readonly [K in keyof T & string]: T[K] & { readonly name: K; readonly handler: string } } {
  return Object.fromEntries(Object.entries(declared).map(([name, route]) => [name, { ...route, name, handler: handlerOf(name) }])) as never;
}

/** Every route's function timeout (s): Lambda ends an invocation there (lib/http/time-guard.ts answers 503 before it). */
export const FUNCTION_TIMEOUT_SECONDS = 10;

/** A route that takes no body but whose method may carry one: it refuses one (415), as its document says. */
export const refusesBody = (r: Pick<Route, 'method' | 'body' | 'rawBody'>): boolean =>
  !r.body && !r.rawBody && ['PUT', 'POST', 'PATCH', 'DELETE'].includes(r.method);

/** A grant on the decks table: actions on the item kinds given (their modules' grant keys). */
export const decks = (actions: TableAction[], leadingKeys: string[]): Grant => ({ table: 'decks', actions, leadingKeys });
/** A grant on the accounts table. */
export const accounts = (actions: TableAction[], leadingKeys: string[]): Grant => ({ table: 'accounts', actions, leadingKeys });
/** A Query of the decks table's indexes named. */
export const query = (...indexes: DecksIndex[]): Grant => ({ table: 'decks', actions: ['Query'], indexes });
/** A Scan of indexes of the decks table (the bulk export's read of every deck item: lib/store/decks.ts publicDeckPages). */
export const scan = (...indexes: DecksIndex[]): Grant => ({ table: 'decks', actions: ['Scan'], indexes });

/**
 * The methods a route answers: a GET route answers HEAD too, with the GET's status and headers and no body
 * (contract §10.4; an HTTP API matches HEAD to no GET route unless it is declared).
 */
export const methodsOf = (route: Pick<Route, 'method'>): Method[] => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]);

/** A route's key as API Gateway names it (`$context.routeKey`): `GET /api/v1/decks/{share_slug}`, or `$default`; `method` for its HEAD twin. */
export const routeKey = (route: Pick<Route, 'method' | 'path'>, method: Method = route.method): string =>
  route.path === '$default' ? '$default' : `${method} ${route.path}`;

const PARAM = /\{(\w+)\}/g;
/** The names in a route path's `{…}` segments, in order. */
export const paramNames = (routePath: string): string[] => [...routePath.matchAll(PARAM)].map((m) => m[1] as string);

/**
 * A request the route answers with its success: its path and example query, each `{name}` filled from `values`
 * (what a test or the bench has made: a deck's id, its share slug), else from the path parameter's declared example.
 */
export function exampleRequest(
  route: Pick<Route, 'name' | 'path' | 'params' | 'exampleQuery'>,
  values: Readonly<Record<string, string>> = {},
): string {
  const fill = (text: string, encode: (s: string) => string) =>
    text.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = values[name] ?? route.params?.[name]?.example;
      if (value === undefined) throw new Error(`${route.name}: no value for {${name}} (give one, or declare the parameter's example)`);
      return encode(value);
    });
  const query = route.exampleQuery ? `?${fill(route.exampleQuery, encodeURIComponent)}` : '';
  return `${fill(route.path, (s) => s)}${query}`;
}

/** A route path's parameters, and how to read them from a request path as API Gateway does (a segment each, URL-decoded). */
export function pathMatcher(routePath: string): { names: string[]; match: (path: string) => Record<string, string> | undefined } {
  const names = paramNames(routePath);
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
export const AUTH_GRANT: Grant = { table: 'accounts', actions: ['GetItem'], leadingKeys: [API_KEY.grant] };
/** The grant every cursor route has: reading the cursor keys, and making them when there are none yet (lib/store/cursor-keys.ts). */
export const CURSOR_KEYS_GRANT: Grant = { table: 'accounts', actions: ['GetItem', 'PutItem'], leadingKeys: [CURSOR_KEYS.grant] };

/**
 * The grant every function of the catalogue has: reading the published catalogue (lib/store/catalogue-read.ts: its
 * pointer, a GetItem, and a new version's parts, a Query of the table).
 */
export const CATALOGUE_GRANT: Grant = { table: 'decks', actions: ['GetItem', 'Query'], leadingKeys: [CATALOGUE.grant] };

export const grantsOf = (who: Grantee): Grant[] => [
  ...(who.scope || who.keyFor ? [AUTH_GRANT] : []),
  ...(who.cursors ? [CURSOR_KEYS_GRANT] : []),
  ...(who.catalogue ? [CATALOGUE_GRANT] : []),
  ...who.grants,
];

/** A route's throttle class: capped routes, reads (GET) and writes (the rest, throttled more strictly); settings in infra. */
export const throttleClass = (route: Route): 'capped' | 'read' | 'write' =>
  route.capped ? 'capped' : route.method === 'GET' ? 'read' : 'write';

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
