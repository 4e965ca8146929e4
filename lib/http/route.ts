/**
 * The shared middy stack: a handler module gives its endpoint (declared by its route, types.ts); this builds the rest.
 * Order: the time guard (time-guard.ts) around all of it; envelope (ids, logs, errors) → Powertools
 * context → header normalisation → body size limit → owner auth → JSON body (or, on a PUT or DELETE that
 * takes none, no body) → the query, parsed by the endpoint's declared schema → the endpoint. Nothing is
 * parsed for a caller without a key.
 * Public routes use `route`; owner routes `ownerRoute` (owner-route.ts), so that only they bundle auth
 * and its store; the compiler takes only route names of the matching kind for each.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { MiddlewareObj } from '@middy/core';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as v from 'valibot';
import { type ROUTES, type RouteName, refusesBody, routeByName } from '#routes';
import type { Scope } from '#rules/scopes.ts';
import { bodyLimit, jsonBody, noBody } from './body.ts';
import { envelope, requestIdOf, success } from './envelope.ts';
import { invalidParameter } from './errors.ts';
import { logger } from './logger.ts';
import { withTimeGuard } from './time-guard.ts';
import type { Endpoint } from './types.ts';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;
type Routes = (typeof ROUTES)[number];
/** Routes with a scope (owner routes) and without (public ones). */
export type OwnerRouteName = Extract<Routes, { scope: Scope }>['name'];
export type PublicRouteName = Exclude<Routes['name'], OwnerRouteName>;

/** A copy without a prototype: a client's name (`constructor`, `__proto__`…) finds only what the client sent. */
const own = (values: Record<string, string | undefined> | null | undefined): Record<string, string> =>
  Object.assign(Object.create(null) as Record<string, string>, values);

/** The query by the endpoint's schema; the first bad parameter is 400 invalid_parameter. */
function parseQuery(schema: v.GenericSchema | undefined, raw: Record<string, string>): unknown {
  if (!schema) return Object.freeze(Object.create(null));
  const parsed = v.safeParse(schema, raw);
  if (!parsed.success) throw invalidParameter(parsed.issues[0]?.message ?? 'a query parameter is not valid');
  return parsed.output;
}

export function build<N extends RouteName>(
  endpoint: Endpoint<N>,
  auth?: (scope: Scope) => MiddlewareObj<Event>,
  key?: (context: Context) => unknown,
) {
  const { name } = endpoint;
  const spec = routeByName(name);
  // Prepared now, at init (a cold start), rather than on the first request.
  for (const prepare of endpoint.init ?? []) prepare();
  const handler = middy<Event, Result, Error, Context>()
    .use(envelope(name))
    .use(injectLambdaContext(logger, { resetKeys: false }))
    .use(httpHeaderNormalizer());
  if (spec.body) handler.use(bodyLimit());
  if (spec.scope && auth) handler.use(auth(spec.scope));
  if (spec.body) handler.use(jsonBody());
  if (refusesBody(spec)) handler.use(noBody());
  const stack = handler.handler(async (event, context) => {
    const requestId = requestIdOf(event, context.awsRequestId);
    const request = {
      params: own(event.pathParameters),
      query: parseQuery(endpoint.query, own(event.queryStringParameters)),
      headers: own(event.headers),
      body: spec.body ? (event.body as unknown as Record<string, unknown>) : Object.freeze({}),
      requestId,
      ...(key ? { key: key(context) } : {}),
    };
    return success(await endpoint.run(request as never), requestId);
  });
  return withTimeGuard(stack);
}

/** A public route's Lambda handler. */
export const route = <N extends PublicRouteName>(endpoint: Endpoint<N>) => build(endpoint);
