/** The middy stack of an owner route: the shared stack with API key auth (scope and user match). */
import type { Context } from 'aws-lambda';
import { type AuthContext, ownerAuth } from './auth.ts';
import { build, type OwnerRoute } from './stack.ts';
import type { Endpoint } from './types.ts';

/** An owner route's Lambda handler: its endpoint's request carries the key that auth has checked. */
export const ownerHandler = <R extends OwnerRoute>(endpoint: Endpoint<R>) =>
  build(endpoint, ownerAuth, (context: Context) => (context as AuthContext).key);
