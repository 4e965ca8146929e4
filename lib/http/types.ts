/**
 * An endpoint, declared by its route (as @hono/zod-openapi's `createRoute` ties a handler to its
 * operation): its route name types, through the route table (lib/routes.ts) and the route's operation
 * (lib/shapes/operations.ts), the path parameters it may read, the query its schema must be, whether it
 * has a body, whether the request carries the caller's key (owner routes), and the `data` it answers.
 * A route's contract is written once; the compiler holds the endpoint to it. The imports are types
 * only: an endpoint's bundle takes no shape it does not use.
 */
import type * as v from 'valibot';
import type { ROUTES, RouteName } from '#routes';
import type { Scope } from '#rules/scopes.ts';
import type { OPERATIONS } from '#shapes/operations.ts';
import type { ApiKey } from '#store/items/api-key.ts';

type RouteOf<N extends RouteName> = Extract<(typeof ROUTES)[number], { name: N }>;
type OperationOf<N extends RouteName> = N extends keyof typeof OPERATIONS ? (typeof OPERATIONS)[N] : Record<string, never>;
/** The names in a route path's `{…}` segments. */
type ParamNames<P extends string> = P extends `${string}{${infer K}}${infer R}` ? K | ParamNames<R> : never;

/** A route's path parameters (own keys only). */
export type ParamsOf<N extends RouteName> = Readonly<Record<ParamNames<RouteOf<N>['path']>, string>>;
/** The schema of a route's query (lib/shapes/queries.ts), as its operation declares it; none when it declares none. */
export type QuerySchemaOf<N extends RouteName> = OperationOf<N> extends { query: infer Q extends v.GenericSchema } ? Q : undefined;
/** A route's query as its schema parses it. */
export type QueryOf<N extends RouteName> =
  QuerySchemaOf<N> extends v.GenericSchema ? v.InferOutput<QuerySchemaOf<N>> : Readonly<Record<string, never>>;
/** The JSON object body of a route that has one (its rules check it: lib/rules); `{}` otherwise. */
export type BodyOf<N extends RouteName> = RouteOf<N>['body'] extends true ? Record<string, unknown> : Readonly<Record<string, never>>;
/** What a route answers in `data`, by its operation's success shape; nothing for a non-JSON answer (`raw`). */
export type DataOf<N extends RouteName> =
  OperationOf<N> extends { success: { contentType: string } }
    ? undefined
    : OperationOf<N> extends { success: { data: infer D extends v.GenericSchema } }
      ? v.InferOutput<D>
      : never;

/** What every endpoint sees of a request. */
export interface ApiRequest<N extends RouteName> {
  params: ParamsOf<N>;
  /** The query, as the route's schema parses it. */
  query: QueryOf<N>;
  /** Lower-cased header names (own keys only). */
  headers: Readonly<Record<string, string>>;
  body: BodyOf<N>;
  requestId: string;
}
/** A request on an owner route: authenticated, authorised for the route's scope and path user. */
export interface OwnerRequest<N extends RouteName> extends ApiRequest<N> {
  key: ApiKey;
}
/** A request as its route's endpoint sees it: on owner routes (those with a scope) it carries the key, which no endpoint then checks for. */
export type RequestOf<N extends RouteName> = RouteOf<N> extends { scope: Scope } ? OwnerRequest<N> : ApiRequest<N>;

/** The part of a request that helpers shared by several endpoints read. */
export type Headed = Pick<ApiRequest<RouteName>, 'headers'>;

type Headers = Record<string, string>;
/** A JSON answer: `data` goes into the success envelope. */
export interface Fresh<D> {
  status?: 200 | 201;
  data: D;
  meta?: Record<string, unknown>;
  headers?: Headers;
  /** Send `data` as the whole body, without the envelope (a document such as openapi.json). */
  bare?: boolean;
  raw?: undefined;
}
/** An If-None-Match that holds the answer's ETag. */
export interface NotModified {
  status: 304;
  data: undefined;
  headers: Headers;
  meta?: undefined;
  bare?: boolean;
  raw?: undefined;
}
/** A body that is not JSON (pages, the docs page's script, images): its content type, and its text or bytes (sent base64). A page for people answers its 404 as a page. */
export interface Raw {
  status?: 200 | 404;
  data: undefined;
  headers: Headers;
  raw: { contentType: string; body: string | Buffer };
  meta?: undefined;
  bare?: undefined;
}
/** What an endpoint answers. */
export type ApiResult<D = unknown> = Fresh<D> | NotModified | Raw;

/** What an endpoint needs prepared at init (a cold start), not on its first request: its catalogue, its store client, its cursor key. */
export type Prepared = readonly (() => unknown)[];

/** What an endpoint declares besides its route: its query schema (exactly its operation's, when it has one) and what it prepares at init. */
export type Declared<N extends RouteName> = { init?: Prepared } & (QuerySchemaOf<N> extends undefined
  ? { query?: undefined }
  : { query: QuerySchemaOf<N> });

/** An endpoint of route N, as the shared stack (route.ts) runs it. */
export interface Endpoint<N extends RouteName> {
  name: N;
  query?: v.GenericSchema;
  init?: Prepared;
  run: (request: RequestOf<N>) => Promise<ApiResult<DataOf<N>>>;
}

/** The endpoint of route `name`: the compiler holds its query, params, body and answer to the route's declaration. */
export const endpoint = <N extends RouteName>(
  name: N,
  declared: Declared<N>,
  run: (request: RequestOf<N>) => Promise<ApiResult<DataOf<N>>>,
): Endpoint<N> => ({ name, ...declared, run });
