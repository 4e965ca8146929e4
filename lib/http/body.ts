/**
 * JSON bodies, in one middleware of the project's own (contract §2, §8.1): at most 128 KiB (checked
 * before any other work, auth included: `bodyLimit`); then `jsonBody`: a Content-Type that is JSON
 * as RFC 9110 matches media types (case-insensitive, optional whitespace and parameters; a charset
 * other than UTF-8 is 415), bytes that are valid UTF-8 (never silently replaced), JSON, and an object.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError, invalidJson, invalidParameter } from './errors.ts';

export const MAX_BODY_BYTES = 128 * 1024;

const bodyBytes = (e: APIGatewayProxyEventV2) =>
  e.body === undefined ? 0 : e.isBase64Encoded ? Math.floor((e.body.length * 3) / 4) : Buffer.byteLength(e.body);

export const payloadTooLarge = () => new ApiError(413, 'payload_too_large', `the body is over ${MAX_BODY_BYTES / 1024} KiB`);

/** The size limit, checked before any other work (auth included). */
export const bodyLimit = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: async ({ event }) => {
    if (bodyBytes(event) > MAX_BODY_BYTES) throw payloadTooLarge();
  },
});

const unsupported = (message: string) => new ApiError(415, 'unsupported_media_type', message);

/** A route that takes no body refuses one (its document declares none): 415, whatever it holds. */
export const noBody = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: async ({ event }) => {
    if (bodyBytes(event) > 0) throw unsupported('this route takes no body');
  },
});

// RFC 9110 §8.3.1 and §5.6.6: type "/" subtype *( OWS ";" OWS [ token "=" ( token / quoted-string ) ] ).
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^\\s*(${TOKEN})/(${TOKEN})\\s*((?:;\\s*(?:${TOKEN}=(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*")\\s*)?)*)$`);
const PARAMETER = new RegExp(`;\\s*(${TOKEN})=(${TOKEN}|"(?:[^"\\\\]|\\\\.)*")`, 'g');

/** Undefined when `contentType` names `expected` (a media type, lower case) in UTF-8 (or no charset); else why not. */
export function mediaTypeProblem(contentType: string | undefined, expected: string, what: string): string | undefined {
  if (contentType === undefined) return `a body needs Content-Type: ${expected}`;
  const m = MEDIA_TYPE.exec(contentType);
  if (!m || `${m[1]}/${m[2]}`.toLowerCase() !== expected) return `send the body as Content-Type: ${expected}`;
  for (const [, name, raw] of (m[3] ?? '').matchAll(PARAMETER)) {
    const value = (raw as string).startsWith('"') ? (raw as string).slice(1, -1).replace(/\\(.)/g, '$1') : (raw as string);
    if ((name as string).toLowerCase() === 'charset' && value.toLowerCase() !== 'utf-8') return `${what} is UTF-8 (charset=utf-8)`;
  }
  return undefined;
}

/** Undefined when `contentType` names JSON in UTF-8; else why not. */
export const jsonMediaTypeProblem = (contentType: string | undefined): string | undefined =>
  mediaTypeProblem(contentType, 'application/json', 'a JSON body');

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body's text: base64 bodies are decoded as strict UTF-8; a text body must be well-formed. */
function text(event: APIGatewayProxyEventV2): string {
  const raw = event.body ?? '';
  if (!event.isBase64Encoded) {
    if (!raw.isWellFormed()) throw invalidJson('the body is not valid UTF-8');
    return raw;
  }
  try {
    return utf8.decode(Buffer.from(raw, 'base64'));
  } catch {
    throw invalidJson('the body is not valid UTF-8');
  }
}

/** Parses the JSON object body into `event.body` (routes that take one). */
export const jsonBody = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: async ({ event }) => {
    if (event.body === undefined || event.body === '') throw invalidJson('a JSON object body is required');
    const problem = jsonMediaTypeProblem(event.headers?.['content-type']);
    if (problem) throw unsupported(problem);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text(event));
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw invalidJson('the body is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalidJson('the body must be a JSON object');
    (event as { body: unknown }).body = parsed;
  },
});

/**
 * A body the endpoint reads itself (routes with `rawBody`): its bytes, as sent, in `event.body` — a text the
 * endpoint decodes (`utf8Text`), or a signed message whose signature is checked over these very bytes before
 * anything reads them. A media type other than the route's is 415 (`any`: none is checked before the signature).
 */
export const rawBody = (mediaType: string): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: async ({ event }) => {
    if (mediaType !== 'any') {
      const problem = mediaTypeProblem(event.headers?.['content-type'], mediaType, 'a text body');
      if (problem) throw unsupported(problem);
    }
    (event as { body: unknown }).body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  },
});

/** A raw body's text: strict UTF-8 (never silently replaced), or 400 saying so. */
export function utf8Text(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalidParameter('the body is not valid UTF-8');
  }
}
