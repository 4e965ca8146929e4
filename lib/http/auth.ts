/**
 * Owner authentication (requirement §5, contract §2/§5): a Bearer API key, looked up by its id with a
 * consistent read (revocation is immediate) and compared in constant time; then the route's scope
 * and the path's user_id (where the path names one). A missing, malformed, unknown or revoked key are all the same 401; an expired
 * one is 401 saying so.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { NO_KEY_HASH, parseApiKey, type Scope, secretMatches } from '#auth/keys.ts';
import { isExpired } from '#rules/keys.ts';
import { getKey } from '#store/accounts.ts';
import { documentClient } from '#store/client.ts';
import type { ApiKey } from '#store/items/api-key.ts';
import { forbidden, unauthorized } from './errors.ts';

const BEARER = /^Bearer +(\S+) *$/i;

export async function authenticate(authorization: string | undefined): Promise<ApiKey> {
  if (!authorization) throw unauthorized('an API key is required: Authorization: Bearer <API_KEY>');
  // Two Authorization headers reach a function as one, their values joined by a comma (API Gateway, payload 2.0).
  if (authorization.includes(',')) throw unauthorized('send one credential: the Authorization header holds more than one');
  const presented = BEARER.exec(authorization)?.[1];
  const parsed = presented ? parseApiKey(presented) : undefined;
  if (!parsed) throw unauthorized('the Authorization header does not hold a Deck Library API key');
  const key = await getKey(parsed.keyId);
  // Compare even for an unknown id, so that response time does not tell which ids exist.
  const matches = secretMatches(parsed.secret, key?.secret_hash ?? NO_KEY_HASH);
  if (!key || !matches || key.status !== 'active') throw unauthorized('the API key is unknown or revoked');
  // Past its expiry a key is refused from that moment on (it is read on every request: no cache to outlive it).
  if (isExpired(key.expires_at, new Date())) throw unauthorized(`the API key expired at ${key.expires_at}`);
  return key;
}

/**
 * The key's scope for the route, and the path's account the key's own. A route whose path names no account (an event's
 * creation: `pathUser` false) acts for the key's account, and its endpoint checks what it touches is that account's.
 */
export function authorize(key: ApiKey, scope: Scope, userId: string | undefined, pathUser = true): void {
  if (!key.scopes.includes(scope)) throw forbidden('insufficient_scope', `this route needs the ${scope} scope`);
  if (pathUser && userId !== key.user_id) throw forbidden('user_mismatch', 'the user_id in the path is not the account of this key');
}

/** The Lambda context of an owner route carries the caller's key once authenticated. */
export interface AuthContext {
  key?: ApiKey;
}

/**
 * Middy middleware: authenticates and authorises, and leaves the key in `context.key`. Made at init,
 * with the store client it reads keys through (and the endpoint its data).
 */
export function ownerAuth(scope: Scope, pathUser = true): MiddlewareObj<APIGatewayProxyEventV2> {
  documentClient();
  return {
    before: async (request) => {
      const key = await authenticate(request.event.headers?.authorization);
      authorize(key, scope, request.event.pathParameters?.user_id, pathUser);
      (request.context as AuthContext).key = key;
    },
  };
}
