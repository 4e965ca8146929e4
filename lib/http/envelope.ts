/**
 * The contract's envelopes (contract §2) for every answer, errors included: middy's own errors and
 * unexpected faults are mapped here, and nothing internal reaches a response.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { parserError } from './body.ts';
import { ApiError, invalidJson, unavailable } from './errors.ts';
import { logger } from './logger.ts';
import type { ApiResult } from './types.ts';

export const API_VERSION = 'v1';
const JSON_TYPE = 'application/json; charset=utf-8';

export function success(result: ApiResult, requestId: string): APIGatewayProxyStructuredResultV2 {
  const status = result.status ?? 200;
  return {
    statusCode: status,
    headers: { 'content-type': JSON_TYPE, 'x-request-id': requestId, ...result.headers },
    body: status === 304 ? '' : JSON.stringify(result.bare ? result.data : { data: result.data, meta: { api_version: API_VERSION, ...result.meta } }),
  };
}

export function failure(error: ApiError, requestId: string): APIGatewayProxyStructuredResultV2 {
  const body = {
    error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
    meta: { api_version: API_VERSION, request_id: requestId },
  };
  return {
    statusCode: error.status,
    headers: { 'content-type': JSON_TYPE, 'x-request-id': requestId, ...error.headers },
    body: JSON.stringify(body),
  };
}

const THROTTLED = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'InternalServerError', 'ServiceUnavailable']);

/** Any thrown value as an ApiError: known ones as they are, the store's throttling as 503, else 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const parser = parserError(error);
  if (parser) {
    return parser.malformed ? invalidJson('the body is not valid JSON') : new ApiError(415, 'unsupported_media_type', 'send the body as Content-Type: application/json');
  }
  const name = (error as Error | undefined)?.name ?? '';
  if (THROTTLED.has(name) || (error as { code?: string })?.code === 'ECONNREFUSED') {
    logger.warn('store unavailable', { error: error as Error });
    return unavailable('the deck store is busy or unreachable; retry shortly');
  }
  logger.error('unexpected error', { error: error as Error });
  return new ApiError(500, 'internal_error', 'something went wrong on our side; the request id identifies it');
}

export const requestIdOf = (event: APIGatewayProxyEventV2, awsRequestId?: string): string =>
  event.requestContext?.requestId ?? awsRequestId ?? 'unknown';

/** Outermost middleware: request id in every log line and in `X-Request-Id`, errors as envelopes, one access log line. */
export const envelope = (): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => {
  let started = 0;
  const access = (event: APIGatewayProxyEventV2, status: number) =>
    logger.info('request', { method: event.requestContext?.http?.method, path: event.rawPath, status, duration_ms: Date.now() - started });
  return {
    before: async (request) => {
      started = Date.now();
      logger.appendKeys({ request_id: requestIdOf(request.event, request.context.awsRequestId) });
    },
    after: async (request) => {
      access(request.event, request.response?.statusCode ?? 200);
    },
    onError: async (request) => {
      const response = failure(toApiError(request.error), requestIdOf(request.event, request.context.awsRequestId));
      request.response = response;
      access(request.event, response.statusCode ?? 500);
    },
  };
};
