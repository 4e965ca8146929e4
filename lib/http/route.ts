/**
 * The shared middy stack: a handler module gives its route name and endpoint; this builds the rest.
 * Order: the time guard (time-guard.ts) around all of it; envelope (ids, logs, errors) → Powertools context → header normalisation →
 * body size limit → owner auth → JSON body → the endpoint. Nothing is parsed for a caller without a key.
 * Public routes use `route`; owner routes `ownerRoute` (owner-route.ts), so that only they bundle auth
 * and its store.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { MiddlewareObj } from '@middy/core';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Scope } from '#auth/keys.ts';
import { type RouteName, routeByName } from '#routes';
import type { AuthContext } from './auth.ts';
import { bodyLimit, jsonBody } from './body.ts';
import { envelope, requestIdOf, success } from './envelope.ts';
import { logger } from './logger.ts';
import { withTimeGuard } from './time-guard.ts';
import type { ApiRequest, Endpoint } from './types.ts';

/** A copy without a prototype: a client's name (`constructor`, `__proto__`…) finds only what the client sent. */
const own = (values: Record<string, string | undefined> | null | undefined): Record<string, string> =>
  Object.assign(Object.create(null) as Record<string, string>, values);

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

type Auth = (scope: Scope) => MiddlewareObj<Event>;

export function route(name: RouteName, endpoint: Endpoint, auth?: Auth) {
  const spec = routeByName(name);
  if (Boolean(spec.scope) !== Boolean(auth)) throw new Error(`${name}: owner routes (with a scope) need ownerRoute, public ones route`);
  const handler = middy<Event, Result, Error, Context>()
    .use(envelope())
    .use(injectLambdaContext(logger, { resetKeys: false }))
    .use(httpHeaderNormalizer());
  if (spec.body) handler.use(bodyLimit());
  if (spec.scope && auth) handler.use(auth(spec.scope));
  if (spec.body) handler.use(jsonBody());
  const stack = handler.handler(async (event, context) => {
    const requestId = requestIdOf(event, context.awsRequestId);
    const request: ApiRequest = {
      params: own(event.pathParameters),
      query: own(event.queryStringParameters),
      headers: own(event.headers),
      body: spec.body ? (event.body as unknown as Record<string, unknown>) : {},
      key: (context as AuthContext).key,
      requestId,
    };
    return success(await endpoint(request), requestId);
  });
  return withTimeGuard(stack);
}
