/**
 * The contract's envelopes (contract §2) for every answer, errors included: middy's own errors and
 * unexpected faults are mapped here, and nothing internal reaches a response.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { loggedPath, logger } from '#logger';
import { count } from '#metrics';
import { API_VERSION } from '#shapes/envelope-constants.ts';
import { isStoreUnavailable } from '#store/faults.ts';
import { ApiError, MAX_DETAILS, unavailable } from './errors.ts';
import type { ApiResult } from './types.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The headers of every answer (contract §2, §8.3), with the answer's own after them. */
const headersOf = (contentType: string | undefined, requestId: string, own: Record<string, string> = {}) => ({
  ...(contentType ? { 'content-type': contentType } : {}),
  'x-request-id': requestId,
  'x-content-type-options': 'nosniff',
  ...own,
});

export function success(result: ApiResult, requestId: string): APIGatewayProxyStructuredResultV2 {
  const status = result.status ?? 200;
  if (status === 304) {
    // No Content-Type: a cache updates the answer it keeps with a 304's headers (RFC 9111 §4.3.4), and the kept
    // answer may be a feed or an image, not JSON (RFC 9110 §15.4.5: a 304 sends no representation metadata but its
    // validators and cache headers).
    return { statusCode: 304, headers: headersOf(undefined, requestId, result.headers), body: '' };
  }
  if (result.raw) {
    const { contentType, body } = result.raw;
    const headers = headersOf(contentType, requestId, result.headers);
    // Bytes (a compressed asset) go through API Gateway as base64, which it decodes for the client.
    return typeof body === 'string'
      ? { statusCode: status, headers, body }
      : { statusCode: status, headers, body: body.toString('base64'), isBase64Encoded: true };
  }
  return {
    statusCode: status,
    headers: headersOf(JSON_TYPE, requestId, result.headers),
    body: JSON.stringify(result.bare ? result.data : { data: result.data, meta: { api_version: API_VERSION, ...result.meta } }),
  };
}

export function failure(error: ApiError, requestId: string): APIGatewayProxyStructuredResultV2 {
  const { details } = error;
  const shown =
    details && details.length > MAX_DETAILS ? { details: details.slice(0, MAX_DETAILS), details_total: details.length } : { details };
  const body = {
    error: { code: error.code, message: error.message, ...(details ? shown : {}) },
    meta: { api_version: API_VERSION, request_id: requestId },
  };
  return {
    statusCode: error.status,
    headers: headersOf(JSON_TYPE, requestId, error.headers),
    body: JSON.stringify(body),
  };
}

/** Any thrown value as an ApiError: known ones as they are, a store fault as 503, anything else 500. */
export function toApiError(error: unknown, requestId?: string): ApiError {
  if (error instanceof ApiError) return error;
  if (isStoreUnavailable(error)) {
    logger.warn('store unavailable', { error: error as Error, request_id: requestId });
    return unavailable('the deck store is busy or unreachable; retry shortly');
  }
  logger.error('unexpected error', { error: error as Error, request_id: requestId });
  return new ApiError(500, 'internal_error', 'something went wrong on our side; the request id identifies it');
}

export const requestIdOf = (event: APIGatewayProxyEventV2, awsRequestId?: string): string =>
  event.requestContext?.requestId ?? awsRequestId ?? 'unknown';

/**
 * Outermost middleware: request id in every log line and in `X-Request-Id`, errors as envelopes, one
 * access log line (with the route and, on owner routes, the key id) and the request metric (lib/metrics.ts).
 * Per-request state lives on the request (the local runtime runs requests side by side in one process).
 */
export const envelope = (route: string): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => {
  type Internal = { started?: number };
  const access = (
    request: { event: APIGatewayProxyEventV2; internal: unknown; context: { awsRequestId?: string; key?: { key_id?: string } } },
    status: number,
  ) => {
    logger.info('request', {
      request_id: requestIdOf(request.event, request.context.awsRequestId),
      route,
      method: request.event.requestContext?.http?.method,
      path: loggedPath(request.event.rawPath),
      status,
      duration_ms: Date.now() - ((request.internal as Internal).started ?? Date.now()),
      ...(request.context.key?.key_id ? { key_id: request.context.key.key_id } : {}),
    });
    count('Requests', { status_class: `${Math.floor(status / 100)}xx` });
    if (status === 503) count('StoreFaults', {});
  };
  return {
    before: async (request) => {
      (request.internal as Internal).started = Date.now();
      logger.appendKeys({ request_id: requestIdOf(request.event, request.context.awsRequestId) });
    },
    after: async (request) => {
      access(request, request.response?.statusCode ?? 200);
    },
    onError: async (request) => {
      const requestId = requestIdOf(request.event, request.context.awsRequestId);
      const response = failure(toApiError(request.error, requestId), requestId);
      request.response = response;
      access(request, response.statusCode ?? 500);
    },
  };
};
