/**
 * The shared middy stack: a handler module gives its endpoint (declared by its route, types.ts); this builds the rest.
 * Order: the time guard (time-guard.ts) around all of it; envelope (ids, logs, errors) → Powertools
 * context → header normalisation → body size limit → owner auth → JSON body (or, on a PUT or DELETE that
 * takes none, no body) → the query, parsed by the endpoint's declared schema → the endpoint. Nothing is
 * parsed for a caller without a key.
 * Public routes' handlers are `publicHandler`; owner routes' `ownerHandler` (owner-handler.ts), so that only they bundle auth
 * and its store; the compiler takes only route names of the matching kind for each.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { MiddlewareObj } from '@middy/core';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as v from 'valibot';
import { logger } from '#logger';
import type { PathParam } from '#routes/params.ts';
import { type HtmlErrorStatus, type Route, refusesBody } from '#routes/route.ts';
import { cutText, visible } from '#rules/invisible.ts';
import type { Scope } from '#rules/scopes.ts';
import { bodyLimit, jsonBody, noBody, rawBody } from './body.ts';
import { envelope, requestIdOf, success } from './envelope.ts';
import { ApiError, invalidParameter } from './errors.ts';
import { withTimeGuard } from './time-guard.ts';
import type { Endpoint } from './types.ts';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;
/** Routes with a scope (owner routes) and without (public ones). */
export type OwnerRoute = Route & { scope: Scope };
export type PublicRoute = Route & { scope?: undefined };

/** A copy without a prototype: a client's name (`constructor`, `__proto__`…) finds only what the client sent. */
const own = (values: Record<string, string | undefined> | null | undefined): Record<string, string> =>
  Object.assign(Object.create(null) as Record<string, string>, values);

/**
 * The query as the client sent it, each name and value percent-decoded strictly: a broken escape, or bytes
 * that are not UTF-8 (a lone surrogate's among them), are 400 naming the parameter (contract §10.4) — never
 * silently replaced, as a lenient decoder would (U+FFFD).
 */
function checkQueryText(rawQueryString: string | undefined): void {
  // decodeURIComponent refuses a broken escape and bytes that are not UTF-8 (a surrogate's included), so
  // what it decodes is always well formed.
  for (const pair of (rawQueryString ?? '').split('&')) {
    if (pair === '') continue;
    const [name = '', value = ''] = pair.split(/=(.*)/s);
    let decoded: string;
    try {
      decoded = decodeURIComponent(name.replaceAll('+', ' '));
    } catch {
      throw invalidParameter(`a query parameter's name is not valid UTF-8 after percent-decoding: ${visible(cutText(name, 40))}`);
    }
    try {
      decodeURIComponent(value.replaceAll('+', ' '));
    } catch {
      throw invalidParameter(`${visible(cutText(decoded, 40))}: not valid UTF-8 after percent-decoding`);
    }
  }
}

/** The query by the endpoint's schema; the first bad parameter is 400 invalid_parameter. */
function parseQuery(schema: v.GenericSchema | undefined, raw: Record<string, string>, rawQueryString: string | undefined): unknown {
  // Every route refuses a query that is not text, whether it declares one or not (contract §10.4).
  checkQueryText(rawQueryString);
  if (!schema) return Object.freeze(Object.create(null));
  const parsed = v.safeParse(schema, raw);
  if (!parsed.success) throw invalidParameter(parsed.issues[0]?.message ?? 'a query parameter is not valid');
  return parsed.output;
}

/** The path's parameters, each read by its declaration (lib/routes/params.ts); one that names nothing is the route's 404. */
function parseParams(declared: Route['params'], raw: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [name, param] of Object.entries(declared ?? {}) as [string, PathParam<unknown>][]) {
    const value = raw[name] === undefined ? undefined : param.parse(raw[name]);
    if (value === undefined && param.missing) throw new ApiError(404, param.missing.code, param.missing.message);
    out[name] = value ?? raw[name];
  }
  return out;
}

/** A 200 or 304 that sets no Cache-Control gets its route's declared lifetime (lib/routes/cache-lifetimes.ts). */
function lasting<A extends { status?: number; headers?: Record<string, string> }>(result: A, cache: string | undefined): A {
  const status = result.status ?? 200;
  if (!cache || (status !== 200 && status !== 304) || result.headers?.['cache-control'] !== undefined) return result;
  return { ...result, headers: { ...result.headers, 'cache-control': cache } };
}

export function build<R extends Route>(
  endpoint: Endpoint<R>,
  auth?: (scope: Scope, pathUser: boolean) => MiddlewareObj<Event>,
  key?: (context: Context) => unknown,
) {
  const spec: Route = endpoint.route;
  const { name } = spec;
  // Prepared now, at init (a cold start), rather than on the first request; what is kept current, before each.
  for (const prepare of endpoint.init ?? []) prepare();
  const current = (endpoint.init ?? []).flatMap((step) => (step.current ? [step.current] : []));
  // A function of the catalogue answers with the published one when there is a newer one (contract §11.5): its
  // endpoint prepares the catalogue, or it would answer with the one it shipped for ever.
  if (spec.catalogue && current.length === 0) throw new Error(`${name}: a route of the catalogue prepares it (init: [catalogue, …])`);
  const handler = middy<Event, Result, Error, Context>()
    .use(envelope(name))
    .use(injectLambdaContext(logger, { resetKeys: false }))
    .use(httpHeaderNormalizer());
  if (spec.body || spec.rawBody) handler.use(bodyLimit());
  if (spec.scope && auth) handler.use(auth(spec.scope, spec.path.includes('{user_id}')));
  if (spec.body) handler.use(jsonBody());
  if (spec.rawBody) handler.use(rawBody(spec.rawBody === 'text/plain' ? 'text/plain' : 'any'));
  if (refusesBody(spec)) handler.use(noBody());
  // A page for people answers its route's page errors (a slug no one may see, a code that does not parse) as a page.
  const asHtml = (error: unknown) =>
    endpoint.htmlError && error instanceof ApiError && spec.htmlErrors?.includes(error.status as HtmlErrorStatus)
      ? endpoint.htmlError(error)
      : undefined;
  const stack = handler.handler(async (event, context) => {
    const requestId = requestIdOf(event, context.awsRequestId);
    try {
      return success(lasting(await answer(event, context, requestId), spec.cache), requestId);
    } catch (error) {
      const page = asHtml(error);
      if (page) return success(page, requestId);
      throw error;
    }
  });
  const answer = async (event: Event, context: Context, requestId: string) => {
    for (const step of current) await step();
    const request = {
      params: parseParams(spec.params, own(event.pathParameters)),
      query: parseQuery(spec.query, own(event.queryStringParameters), event.rawQueryString),
      headers: own(event.headers),
      body: spec.body || spec.rawBody ? (event.body as unknown) : Object.freeze({}),
      method: event.requestContext?.http?.method ?? 'GET',
      path: event.rawPath ?? '/',
      rawQuery: event.rawQueryString ?? '',
      requestId,
      ...(key ? { key: key(context) } : {}),
    };
    return endpoint.run(request as never);
  };
  return headless(withTimeGuard(stack));
}

/**
 * A HEAD (a GET route's twin: lib/routes/route.ts methodsOf) answers what the GET would, without the body:
 * the same status and headers (contract §10.4), Content-Length the GET's (RFC 9110 §9.3.2, §8.6: a HEAD's
 * Content-Length, when sent, is the size the GET's body would have).
 */
const headless =
  (handler: (event: Event, context: Context) => Promise<Result>) =>
  async (event: Event, context: Context): Promise<Result> => {
    const answer = await handler(event, context);
    if (event.requestContext?.http?.method !== 'HEAD') return answer;
    const length = Buffer.byteLength(answer.body ?? '', answer.isBase64Encoded ? 'base64' : 'utf8');
    return { ...answer, headers: { ...answer.headers, 'content-length': String(length) }, body: '', isBase64Encoded: false };
  };

/** A public route's Lambda handler. */
export const publicHandler = <R extends PublicRoute>(endpoint: Endpoint<R>) => build(endpoint);
