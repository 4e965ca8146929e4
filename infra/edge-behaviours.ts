/**
 * The edge's behaviours, derived from the route table (contract §11.2): a route declared `edge: 'cached'`
 * (lib/routes/route.ts) is kept under a CloudFront path pattern of its path (each `{param}` a `*`), keyed by the
 * query parameters its route declares; every other path takes the default behaviour, never cached. The CDK
 * construct (infra/constructs/edge.ts) and the local edge (infra/local/edge.ts) both read this, in the order
 * CloudFront tries them (the most specific pattern first: it takes the first a path matches).
 */
import type { Route } from '#routes';

/** A cached route's path as a CloudFront path pattern: each `{param}` a `*`. */
export const pathPatternOf = (path: string): string => path.replace(/\{\w+\}/g, '*');

/** The query parameters a route declares (its query schema's entries). */
export const declaredQuery = (route: Pick<Route, 'query'>): string[] =>
  Object.keys((route.query as { entries?: Record<string, unknown> } | undefined)?.entries ?? {}).sort();

export interface CachedBehaviour {
  pattern: string;
  /** The query parameters in its cache key: those its routes declare. */
  query: string[];
  routes: string[];
}

/** The cached behaviours, one a path pattern (with the query parameters of the routes that share it), most specific first. */
export function cachedBehaviours(routes: readonly Route[]): CachedBehaviour[] {
  const byPattern = new Map<string, { query: Set<string>; routes: string[] }>();
  for (const route of routes.filter((r) => r.edge === 'cached')) {
    const pattern = pathPatternOf(route.path);
    const at = byPattern.get(pattern) ?? { query: new Set<string>(), routes: [] };
    for (const q of declaredQuery(route)) at.query.add(q);
    at.routes.push(route.name);
    byPattern.set(pattern, at);
  }
  return [...byPattern]
    .map(([pattern, { query, routes: names }]) => ({ pattern, query: [...query].sort(), routes: names }))
    .sort((a, b) => b.pattern.length - a.pattern.length || (a.pattern < b.pattern ? -1 : 1));
}

/** Whether a path matches a CloudFront path pattern (`*`: any characters, `/` too; `?`: one; case-sensitive). */
export function matchesPattern(pattern: string, path: string): boolean {
  const regex = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${regex}$`).test(path);
}

/** The cached behaviour a path takes, or undefined: the default behaviour, never cached. */
export const behaviourOf = (behaviours: readonly CachedBehaviour[], path: string): CachedBehaviour | undefined =>
  behaviours.find((b) => matchesPattern(b.pattern, path));

/** CloudFront's default root object for a path: the path without its leading `/` (the reader of `/` is shown it). */
export const rootObjectOf = (path: string): string => path.replace(/^\//, '');
