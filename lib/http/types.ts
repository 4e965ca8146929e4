/**
 * What an endpoint sees of a request, typed by its route (as Hono's typed context): its query parsed
 * by its declared schema, and — on owner routes only — the caller's key, which the type makes
 * required, so no owner endpoint ever checks for it.
 */
import type * as v from 'valibot';
import type { KeyRecord } from '#store/accounts.ts';

export interface ApiRequest<Q = Record<string, never>> {
  /** Path parameters (own keys only). */
  params: Record<string, string>;
  /** The query, as the route's schema parses it (lib/shapes/queries.ts). */
  query: Q;
  /** Lower-cased header names (own keys only). */
  headers: Record<string, string>;
  /** The JSON object body (routes with `body`); `{}` otherwise. */
  body: Record<string, unknown>;
  requestId: string;
}

/** A request on an owner route: authenticated, authorised for the route's scope and path user. */
export interface OwnerRequest<Q = Record<string, never>> extends ApiRequest<Q> {
  key: KeyRecord;
}

/** What an endpoint answers: `data` goes into the success envelope. */
export interface ApiResult {
  status?: number;
  data: unknown;
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Send `data` as the whole body, without the envelope (a document such as openapi.json). */
  bare?: boolean;
  /** A body that is not JSON (the docs page and its assets): its content type, and its text or bytes (sent base64). */
  raw?: { contentType: string; body: string | Buffer };
}

export type QueryOf<S> = S extends v.GenericSchema ? v.InferOutput<S> : Record<string, never>;

/** What an endpoint needs prepared at init (a cold start), not on its first request: its catalogue, its store client, its cursor key. */
export type Prepared = readonly (() => unknown)[];

/** An endpoint and what it declares of its input (its query schema), as the shared stack runs it. */
export interface Endpoint<Req, S extends v.GenericSchema | undefined = v.GenericSchema | undefined> {
  owner: boolean;
  query?: S;
  init?: Prepared;
  run: (request: Req) => Promise<ApiResult>;
}
export type PublicEndpoint = Endpoint<ApiRequest<never>> & { owner: false };
export type OwnerEndpoint = Endpoint<OwnerRequest<never>> & { owner: true };

/** A public route's endpoint: `query` declares and types its query parameters. */
export const publicEndpoint = <S extends v.GenericSchema | undefined = undefined>(
  declared: { query?: S; init?: Prepared },
  run: (request: ApiRequest<QueryOf<S>>) => Promise<ApiResult>,
) => ({ owner: false as const, ...declared, run }) as unknown as PublicEndpoint;

/** An owner route's endpoint: its request carries the caller's key. */
export const ownerEndpoint = <S extends v.GenericSchema | undefined = undefined>(
  declared: { query?: S; init?: Prepared },
  run: (request: OwnerRequest<QueryOf<S>>) => Promise<ApiResult>,
) => ({ owner: true as const, ...declared, run }) as unknown as OwnerEndpoint;
