/** The middy stack of an owner route: the shared stack with API key auth (scope and user match). */
import type { RouteName } from '#routes';
import { ownerAuth } from './auth.ts';
import { route } from './route.ts';
import type { Endpoint } from './types.ts';

export const ownerRoute = (name: RouteName, endpoint: Endpoint) => route(name, endpoint, ownerAuth);
