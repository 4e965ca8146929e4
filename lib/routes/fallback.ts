/** The fallback: what no route matches (API Gateway's `$default`). */
import type { Route } from './route.ts';

/** What no other route matches: 404 not_found in the envelope. */
export const notFound = {
  name: 'notFound',
  method: 'ANY',
  path: '$default',
  handler: 'functions/not-found.ts',
  grants: [],
} as const satisfies Route;
