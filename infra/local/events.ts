/**
 * What the local gateway (gateway.ts) hands a function, as API Gateway does: the route a request
 * matches (API Gateway's precedence), its HTTP API payload v2 event and a Lambda context. Tests and the
 * benchmark build events with these too.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { FUNCTION_TIMEOUT_SECONDS, type Method, methodsOf, pathMatcher, ROUTES, type Route, routeKey } from '#routes';

// Static segments win over parameters, as in API Gateway: /decks/validate before /decks/{deck_id}.
const matchers = (ROUTES as readonly Route[])
  .filter((r) => r.path !== '$default')
  .map((route) => ({ route, ...pathMatcher(route.path) }))
  .sort((a, b) => a.names.length - b.names.length);
const fallback = ROUTES.find((r) => r.path === '$default') as Route;

export function matchRoute(method: string, path: string): { route: Route; params: Record<string, string> } {
  for (const m of matchers) {
    if (!methodsOf(m.route).includes(method as Method) && m.route.method !== 'ANY') continue;
    const params = m.match(path);
    if (params) return { route: m.route, params };
  }
  return { route: fallback, params: {} };
}

/** Repeated names joined by commas, as API Gateway does; a client's name is only ever an own key. */
function joinValues(pairs: [string, string][]): Record<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of pairs) out.set(k, out.has(k) ? `${out.get(k)},${v}` : v);
  return Object.fromEntries(out);
}

export interface RawRequest {
  method: string;
  /** Path and query string. */
  url: string;
  /** Lower-case names; repeated headers as arrays. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  sourceIp?: string;
  /** The request id of the API's answer (made here when not given). */
  requestId?: string;
}

// ignoreBOM: a leading byte-order mark is kept as the text's first character, not dropped — the body a signature
// covers is the bytes sent (a BOM before a signed PING answered PONG under the PING's own signature).
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** A body as API Gateway passes it: text when it is UTF-8, else base64 (isBase64Encoded), never altered. */
function eventBody(body: Buffer): { body?: string; isBase64Encoded: boolean } {
  if (body.length === 0) return { isBase64Encoded: false };
  try {
    return { body: utf8.decode(body), isBase64Encoded: false };
  } catch {
    return { body: body.toString('base64'), isBase64Encoded: true };
  }
}

/** The API Gateway HTTP API (payload v2) event for a request on a route. */
export function toEvent(req: RawRequest, route: Route, params: Record<string, string>): APIGatewayProxyEventV2 {
  const url = new URL(req.url, 'http://local');
  const { method, body } = req;
  const headers = joinValues(
    Object.entries(req.headers).flatMap(([k, v]) =>
      Array.isArray(v) ? v.map((x) => [k, x] as [string, string]) : v === undefined ? [] : [[k, v] as [string, string]],
    ),
  );
  // As API Gateway does, the protocol the client used (here plain HTTP), whatever the client sent.
  headers['x-forwarded-proto'] = 'http';
  const query = joinValues([...url.searchParams.entries()]);
  const now = new Date();
  // A HEAD is its GET route's twin: its own route key (the access log counts no view for it).
  const key = routeKey(route, method === 'HEAD' && route.method === 'GET' ? 'HEAD' : route.method);
  return {
    version: '2.0',
    routeKey: key,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    ...eventBody(body),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: req.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: req.requestId ?? randomUUID(),
      routeKey: key,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
  };
}

/**
 * The context Lambda hands a function: its name, and the time left before its timeout (the routes' 10 s, or its own).
 * LOCAL_ROUTE_TIMEOUT_S lengthens the routes' locally (never a worker's own): a test whose requests are not about time
 * gives them a longer REQUEST_BUDGET_MS under it (test/support/runtime.ts ownRuntime).
 */
export function lambdaContext(route: Pick<Route, 'name'> & { timeoutSeconds?: number }): Context {
  const routes = Number(process.env.LOCAL_ROUTE_TIMEOUT_S) || FUNCTION_TIMEOUT_SECONDS;
  const deadline = Date.now() + (route.timeoutSeconds ?? routes) * 1000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: `deck-library-${route.name}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:deck-library-${route.name}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/deck-library-${route.name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => deadline - Date.now(),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
