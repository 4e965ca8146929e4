/** The fallback: what no route matches (API Gateway's `$default`). */
import { type Declared, type Route, routes } from './route.ts';

export const FALLBACK_ROUTES = routes({
  /** What no other route matches: 404 not_found in the envelope. */
  notFound: {
    method: 'ANY',
    path: '$default',
    grants: [],
  } as const satisfies Declared<Route>,
});
