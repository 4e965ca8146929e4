/**
 * A local stand-in for API Gateway (HTTP API, payload v2): matches a request against the route table,
 * builds the v2 event and a Lambda context (events.ts), and calls the route's own handler module — or
 * its execution environments (lambda/, LAMBDA_LIFECYCLE=1) — and writes its access log line. Requests run
 * side by side as on Lambda with concurrent invocations: each in its own Lambda invoke context (the
 * runtime's InvokeStore, which Powertools reads), so every log line carries its own request's identity.
 * The gateway's own answers (a body over the limit, a request Node's HTTP parser refuses) are the
 * contract's envelope with an X-Request-Id too.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { MAX_BODY_BYTES, payloadTooLarge } from '#http/body.ts';
import { failure } from '#http/envelope.ts';
import { ApiError } from '#http/errors.ts';
import { CORS, type Route, routeKey } from '#routes';
import { type AccessLogValues, accessLine } from '../access-log-fields.ts';
import { lambdaContext, matchRoute, type RawRequest, toEvent } from './events.ts';
import { asRoute } from './grants-guard.ts';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const ROOT = resolve(import.meta.dirname, '../..');
const handlers = new Map<string, Promise<Handler>>();
const load = (entry: string): Promise<Handler> => {
  let h = handlers.get(entry);
  if (!h) {
    h = import(pathToFileURL(resolve(ROOT, entry)).href).then((m: { handler: Handler }) => m.handler);
    handlers.set(entry, h);
  }
  return h;
};

class TooLarge extends Error {}

/**
 * The request's headers with every value of a repeated one, joined with commas as API Gateway does for
 * payload 2.0 ("Duplicate headers are combined with commas", the developer guide's
 * http-api-develop-integrations-lambda page). Node joins most repeats itself but keeps only the first
 * of some — Authorization among them —, so those are taken from the raw headers. (req.headersDistinct
 * does the same, but measured slower: the fuzz test's 7,750 requests took 69–75 s with it, 58 s without.)
 */
function withRepeated(req: IncomingMessage): Record<string, string | string[] | undefined> {
  const seen = new Map<string, string[]>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] as string).toLowerCase();
    seen.set(name, [...(seen.get(name) ?? []), req.rawHeaders[i + 1] as string]);
  }
  const headers: Record<string, string | string[] | undefined> = { ...req.headers };
  for (const [name, values] of seen) if (values.length > 1 && name !== 'host' && name !== 'content-length') headers[name] = values;
  return headers;
}

/** The body, read only up to the limit: past it reading stops at once (TooLarge), as does a declared length over it. */
const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((ok, fail) => {
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return fail(new TooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        req.pause();
        fail(new TooLarge());
      } else chunks.push(c);
    });
    req.on('end', () => ok(Buffer.concat(chunks)));
    req.on('error', fail);
  });

/** How a route's function is invoked: in this process (below), or as Lambda runs it (lambda/, LAMBDA_LIFECYCLE=1). */
export type Invoker = (route: Route, event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
let invoker: Invoker | undefined;
export const useInvoker = (next: Invoker | undefined) => {
  invoker = next;
};
/** Where the access log's lines go (access-log.ts), if anywhere. */
let accessLog: ((line: Record<string, string>) => void) | undefined;
export const useAccessLog = (write: ((line: Record<string, string>) => void) | undefined) => {
  accessLog = write;
};

/** Routes a request to its handler module and returns the handler's answer. */
export async function invoke(
  raw: RawRequest,
  { route, params } = matchRoute(raw.method, new URL(raw.url, 'http://local').pathname),
): Promise<APIGatewayProxyStructuredResultV2> {
  if (invoker) return invoker(route, toEvent(raw, route, params), lambdaContext(route));
  // Loaded as the route's function: what its module does at init (the cursor keys read, or made) has its grants only.
  const handler = await asRoute(route, () => load(route.handler));
  const store = await InvokeStore.getInstanceAsync();
  const context = lambdaContext(route);
  return store.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: context.awsRequestId }, () =>
    asRoute(route, () => handler(toEvent(raw, route, params), context)),
  );
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A CORS preflight as API Gateway answers it when `corsPreflight` is set (routes.ts CORS): 204, before any function. */
const PREFLIGHT = {
  'access-control-allow-origin': CORS.allowOrigins.join(','),
  'access-control-allow-methods': CORS.allowMethods.join(','),
  'access-control-allow-headers': CORS.allowHeaders.join(','),
  'access-control-max-age': String(CORS.maxAgeSeconds),
};
/** What API Gateway adds to the answer of a cross-origin request. */
const CROSS_ORIGIN = {
  'access-control-allow-origin': CORS.allowOrigins.join(','),
  'access-control-expose-headers': CORS.exposeHeaders.join(','),
};

/** The node:http request listener of the local API. */
export async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = randomUUID();
  const start = Date.now();
  const path = new URL(req.url ?? '/', 'http://local').pathname;
  const logAnswer = (status: number, length: number, values: AccessLogValues = {}) =>
    accessLog?.(
      accessLine({
        '$context.requestId': requestId,
        '$context.httpMethod': req.method ?? 'GET',
        '$context.path': path,
        '$context.status': String(status),
        '$context.responseLength': String(length),
        '$context.responseLatency': String(Date.now() - start),
        '$context.identity.sourceIp': req.socket.remoteAddress ?? '127.0.0.1',
        '$context.identity.userAgent': req.headers['user-agent'] ?? '',
        '$context.requestTimeEpoch': String(start),
        '$context.protocol': `HTTP/${req.httpVersion}`,
        ...values,
      }),
    );
  const crossOrigin = req.headers.origin !== undefined;
  if (req.method === 'OPTIONS' && crossOrigin && req.headers['access-control-request-method'] !== undefined) {
    req.resume();
    res.writeHead(204, { ...PREFLIGHT, 'content-length': 0 });
    res.end();
    return;
  }
  try {
    const raw: RawRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: withRepeated(req),
      body: await readBody(req),
      sourceIp: req.socket.remoteAddress,
      requestId,
    };
    const matched = matchRoute(raw.method, path);
    const result = await invoke(raw, matched);
    const payload = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
    // A HEAD's Content-Length is the GET's, as its handler says it (lib/http/stack.ts); Node sends no body to a HEAD.
    const declared = raw.method === 'HEAD' ? result.headers?.['content-length'] : undefined;
    const length = declared === undefined ? Buffer.byteLength(payload) : String(declared);
    res.writeHead(result.statusCode ?? 200, {
      ...(result.headers as Record<string, string>),
      ...(crossOrigin ? CROSS_ORIGIN : {}),
      'content-length': length,
    });
    res.end(payload);
    logAnswer(result.statusCode ?? 200, Buffer.byteLength(payload), {
      '$context.routeKey': routeKey(matched.route, raw.method === 'HEAD' && matched.route.method === 'GET' ? 'HEAD' : matched.route.method),
      '$context.integrationLatency': String(Date.now() - start),
      '$context.integrationStatus': '200',
    });
  } catch (e) {
    if (e instanceof TooLarge) {
      // Answer now and close: the rest of the body is never kept.
      const { statusCode, headers, body } = failure(payloadTooLarge(), requestId);
      res.writeHead(statusCode ?? 413, { ...(headers as Record<string, string>), 'content-length': Buffer.byteLength(body as string) });
      // Closing at once would reset the connection under a client still sending and lose this answer:
      // what still arrives is discarded (never kept) for a moment, then the connection is dropped.
      // A body that then ends keeps the connection (keep-alive); one still arriving after 2 s loses it.
      res.end(body);
      logAnswer(statusCode ?? 413, Buffer.byteLength(body as string));
      req.resume();
      const drop = setTimeout(() => req.socket.destroy(), 2_000).unref();
      req.once('end', () => clearTimeout(drop));
      return;
    }
    // Only a fault of this stand-in lands here (handlers answer their own errors), as API Gateway's 500 would.
    console.error('local gateway error', e);
    const { statusCode, headers, body } = failure(new ApiError(500, 'internal_error', 'the local gateway failed'), requestId);
    res.writeHead(statusCode ?? 500, headers as Record<string, string>);
    res.end(body);
  }
}

/**
 * A request Node's HTTP parser refuses (a bad method, a NUL in a header, too many header bytes):
 * the envelope with an X-Request-Id, while the socket can still take it, then the connection closes.
 */
export function onClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const requestId = randomUUID();
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const apiError = tooLarge
    ? new ApiError(431, 'headers_too_large', 'the request headers are too large')
    : new ApiError(400, 'bad_request', 'the request is not valid HTTP/1.1');
  const { statusCode, body } = failure(apiError, requestId);
  const text = body as string;
  socket.end(
    `HTTP/1.1 ${statusCode} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `content-type: ${JSON_TYPE}\r\nx-request-id: ${requestId}\r\nx-content-type-options: nosniff\r\n` +
      `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}
