/**
 * An endpoint, declared by its route (as @hono/zod-openapi's `createRoute` ties a handler to its
 * operation): its route's declaration (lib/routes/) types the path parameters it is given (parsed), the
 * query (parsed by the route's schema), whether it has a body, whether the request carries the caller's
 * key (owner routes), and the `data` it answers. A route's contract is written once; the compiler holds
 * the endpoint to it. An endpoint bundles its own route's declaration, not the table.
 */
import type * as v from 'valibot';
import type { ParsedOf } from '#routes/params.ts';
import type { Route } from '#routes/route.ts';
import type { Scope } from '#rules/scopes.ts';
import type { ShapeName, ShapeOf } from '#shapes/named.ts';
import type { ApiKey } from '#store/items/api-key.ts';
import type { ApiError } from './errors.ts';

/** A route's path parameters, each as its declaration parses it (own keys only). */
export type ParamsOf<R extends Route> = R extends { params: infer P }
  ? { readonly [K in keyof P]: ParsedOf<P[K]> }
  : Readonly<Record<string, never>>;
/** A route's query as its schema parses it. */
export type QueryOf<R extends Route> = R extends { query: infer Q extends v.GenericSchema }
  ? v.InferOutput<Q>
  : Readonly<Record<string, never>>;
/** The JSON object body of a route that has one (its rules check it: lib/rules); the bytes of a raw body; `{}` otherwise. */
export type BodyOf<R extends Route> = R extends { body: ShapeName }
  ? Record<string, unknown>
  : R extends { rawBody: string }
    ? Buffer
    : Readonly<Record<string, never>>;
/** What a route answers in `data`, by its success shape; nothing for a non-JSON answer (`raw`). */
export type DataOf<R extends Route> = R extends { success: { contentType: string } }
  ? undefined
  : R extends { success: { data: infer D extends ShapeName } }
    ? v.InferOutput<ShapeOf<D>>
    : never;

/** What every endpoint sees of a request. */
export interface ApiRequest<R extends Route> {
  params: ParamsOf<R>;
  /** The query, as the route's schema parses it. */
  query: QueryOf<R>;
  /** Lower-cased header names (own keys only). */
  headers: Readonly<Record<string, string>>;
  body: BodyOf<R>;
  /** The request's method, path and query as sent (percent-encoded): what a redirect keeps. */
  method: string;
  path: string;
  rawQuery: string;
  requestId: string;
}
/** A request on an owner route: authenticated, authorised for the route's scope and path user. */
export interface OwnerRequest<R extends Route> extends ApiRequest<R> {
  key: ApiKey;
}
/** A request as its route's endpoint sees it: on owner routes (those with a scope) it carries the key, which no endpoint then checks for. */
export type RequestOf<R extends Route> = R extends { scope: Scope } ? OwnerRequest<R> : ApiRequest<R>;

/** The part of a request that helpers shared by several endpoints read. */
export type Headed = Pick<ApiRequest<Route>, 'headers'>;

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
/** A body that is not JSON (pages, the docs page's script, images): its content type, and its text or bytes (sent base64). A page for people answers its errors as pages (400, 404); a redirect (308) names its Location. */
export interface Raw {
  status?: 200 | 308 | 400 | 404;
  data: undefined;
  headers: Headers;
  raw: { contentType: string; body: string | Buffer };
  meta?: undefined;
  bare?: undefined;
}
/** What an endpoint answers. */
export type ApiResult<D = unknown> = Fresh<D> | NotModified | Raw;

/**
 * What an endpoint needs prepared at init (a cold start), not on its first request: its catalogue, its store client,
 * its cursor key. A step with `current` is also brought up to date before each request (the catalogue: the published
 * version, lib/catalogue/load.ts).
 */
export type Prepared = readonly ((() => unknown) & { current?: () => Promise<void> })[];

/** What an endpoint declares besides its route: what it prepares at init, and (a page for people) the HTML page (`htmlError`) an error of its route's `htmlErrors` answers. */
export interface Declared {
  init?: Prepared;
  htmlError?: (error: ApiError) => ApiResult;
}

/** An endpoint of route R, as the shared stack (stack.ts) runs it. */
export interface Endpoint<R extends Route> extends Declared {
  route: R;
  run: (request: RequestOf<R>) => Promise<ApiResult<DataOf<R>>>;
}

/** The endpoint of `route`: the compiler holds its params, query, body and answer to the route's declaration. */
export const endpoint = <const R extends Route>(
  route: R,
  declared: Declared,
  run: (request: RequestOf<R>) => Promise<ApiResult<DataOf<R>>>,
): Endpoint<R> => ({ route, ...declared, run });
