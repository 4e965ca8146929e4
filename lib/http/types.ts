import type { KeyRecord } from '#store/accounts.ts';

/** What an endpoint sees of a request: parsed, normalised, authenticated. */
export interface ApiRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The JSON object body (routes with `body`); `{}` otherwise. */
  body: Record<string, unknown>;
  /** The caller's key (owner routes). */
  key?: KeyRecord;
  requestId: string;
}

/** What an endpoint answers: `data` goes into the success envelope. */
export interface ApiResult {
  status?: number;
  data: unknown;
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Send `data` as the whole body, without the envelope (a document such as openapi.json). */
  bare?: boolean;
}

export type Endpoint = (request: ApiRequest) => Promise<ApiResult>;
