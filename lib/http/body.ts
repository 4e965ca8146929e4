/**
 * JSON bodies: at most 128 KiB (checked first), parsed by middy's parser, and a JSON object.
 * middy answers a malformed body with its own 415; the envelope maps that to 400 invalid_json.
 */
import type { MiddlewareObj } from '@middy/core';
import jsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError, invalidJson } from './errors.ts';

export const MAX_BODY_BYTES = 128 * 1024;

const bodyBytes = (e: APIGatewayProxyEventV2) =>
  e.body === undefined ? 0 : e.isBase64Encoded ? Math.floor((e.body.length * 3) / 4) : Buffer.byteLength(e.body);

/** The size limit, checked before any other work (auth included). */
export const bodyLimit = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: async ({ event }) => {
    if (bodyBytes(event) > MAX_BODY_BYTES) throw new ApiError(413, 'payload_too_large', `the body is over ${MAX_BODY_BYTES / 1024} KiB`);
  },
});

const present: MiddlewareObj<APIGatewayProxyEventV2> = {
  before: async ({ event }) => {
    if (event.body === undefined || event.body === '') throw invalidJson('a JSON object body is required');
  },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const objectOnly: MiddlewareObj<APIGatewayProxyEventV2> = {
  before: async ({ event }) => {
    if (!isObject(event.body as unknown)) throw invalidJson('the body must be a JSON object');
  },
};

export const jsonBody = () => [present, jsonBodyParser(), objectOnly];

/** True for the errors middy's JSON parser throws; `malformed` tells a bad body from a bad type. */
export function parserError(error: unknown): { malformed: boolean } | undefined {
  const cause = (error as { cause?: { package?: string } }).cause;
  if (cause?.package !== '@middy/http-json-body-parser') return undefined;
  return { malformed: (error as Error).message !== 'Unsupported Media Type' };
}
