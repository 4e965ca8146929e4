/**
 * A local stand-in for API Gateway (HTTP API, payload v2): matches a request against the route table,
 * builds the v2 event and a Lambda context, and calls the route's own handler module.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ROUTES, type Route } from '#routes';
import { asRoute } from './grants-guard.ts';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const ROOT = resolve(import.meta.dirname, '../..');
const PARAM = /\{(\w+)\}/g;

interface Matcher {
  route: Route;
  pattern: RegExp;
  names: string[];
}

// Static segments win over parameters, as in API Gateway: /decks/validate before /decks/{deck_id}.
const matchers: Matcher[] = ROUTES.filter((r) => r.path !== '$default')
  .map((route) => ({
    route,
    names: [...route.path.matchAll(PARAM)].map((m) => m[1] as string),
    pattern: new RegExp(`^${route.path.replace(PARAM, '([^/]+)')}$`),
  }))
  .sort((a, b) => a.names.length - b.names.length);
const fallback = ROUTES.find((r) => r.path === '$default') as Route;

export function matchRoute(method: string, path: string): { route: Route; params: Record<string, string> } {
  for (const m of matchers) {
    if (m.route.method !== method && m.route.method !== 'ANY') continue;
    const found = m.pattern.exec(path);
    if (!found) continue;
    const params: Record<string, string> = {};
    m.names.forEach((name, i) => {
      const raw = found[i + 1] as string;
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        params[name] = raw;
      }
    });
    return { route: m.route, params };
  }
  return { route: fallback, params: {} };
}

const handlers = new Map<string, Promise<Handler>>();
const load = (entry: string): Promise<Handler> => {
  let h = handlers.get(entry);
  if (!h) {
    h = import(pathToFileURL(resolve(ROOT, entry)).href).then((m: { handler: Handler }) => m.handler);
    handlers.set(entry, h);
  }
  return h;
};

function joinValues(pairs: [string, string][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of pairs) out[k] = k in out ? `${out[k]},${v}` : v;
  return out;
}

export interface RawRequest {
  method: string;
  /** Path and query string. */
  url: string;
  /** Lower-case names; repeated headers as arrays. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  sourceIp?: string;
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
  const query = joinValues([...url.searchParams.entries()]);
  const now = new Date();
  const routeKey = route.path === '$default' ? '$default' : `${route.method} ${route.path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    body: body.length ? body.toString('utf8') : undefined,
    isBase64Encoded: false,
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
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
  };
}

export function lambdaContext(route: Route): Context {
  const deadline = Date.now() + 10_000;
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

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => ok(Buffer.concat(chunks)));
    req.on('error', fail);
  });

/** Routes a request to its handler module and returns the handler's answer. */
export async function invoke(raw: RawRequest): Promise<APIGatewayProxyStructuredResultV2> {
  const { route, params } = matchRoute(raw.method, new URL(raw.url, 'http://local').pathname);
  const handler = await load(route.entry);
  return asRoute(route, () => handler(toEvent(raw, route, params), lambdaContext(route)));
}

/** The node:http request listener of the local API. */
export async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const raw: RawRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body: await readBody(req),
      sourceIp: req.socket.remoteAddress,
    };
    const result = await invoke(raw);
    const payload = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
    res.writeHead(result.statusCode ?? 200, {
      ...(result.headers as Record<string, string>),
      'content-length': Buffer.byteLength(payload),
    });
    res.end(payload);
  } catch (e) {
    // Only a fault of this stand-in lands here (handlers answer their own errors), as API Gateway's 500 would.
    console.error('local gateway error', e);
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ message: 'Internal Server Error' }));
  }
}
