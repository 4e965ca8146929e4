/**
 * GET /api/v1/decks — public decks only. The most selective single filter picks the index partition
 * (tag, then ally, then main, else all public decks); other filters are applied on a read budget.
 */
import { invalidParameter } from '#http/errors.ts';
import { limitParam, oneOf, pageParam, textParam } from '#http/query.ts';
import type { Endpoint } from '#http/types.ts';
import { FACTION_IDS, MAIN_FACTION_IDS } from '#rules/factions.ts';
import { LIMITS } from '#rules/limits.ts';
import { SORTS, type Sort } from '#store/search.ts';
import { type Filters, searchEntries } from '#store/search-query.ts';
import { openCursor, queryDigest, signCursor } from './cursor.ts';
import { searchItem } from './views.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 50;
/** Items a page number may pass over before the client is asked to walk with cursors instead. */
export const MAX_SKIP = 10_000;
/** Index items one filtered request may read for its page. */
export const filterBudget = (limit: number) => Math.max(200, 10 * limit);
/** Index items a filtered request may read to reach a page by number; deeper, walk by cursor. */
export const MAX_FILTERED_READ = 5_000;

interface SearchCursor {
  d: string;
  p: number;
  k: [string, string, string];
}

function facetAndRest(f: Filters): { facet: string; rest: Filters } {
  const { tag, ally, main, q } = f;
  if (tag) return { facet: `tag:${tag}`, rest: { ally, main, q } };
  if (ally) return { facet: `ally:${ally}`, rest: { main, q } };
  if (main) return { facet: `main:${main}`, rest: { q } };
  return { facet: 'all', rest: { q } };
}

export const searchPublicDecks: Endpoint = async (req) => {
  const sort: Sort = oneOf(req, 'sort', SORTS) ?? 'date';
  const limit = limitParam(req, DEFAULT_LIMIT, MAX_LIMIT);
  const filters: Filters = {
    main: oneOf(req, 'main_faction', MAIN_FACTION_IDS),
    ally: oneOf(req, 'ally_faction', FACTION_IDS),
    tag: textParam(req, 'tag', LIMITS.tagChars),
    q: textParam(req, 'q', 100),
  };
  const { facet, rest } = facetAndRest(filters);
  const digest = queryDigest([sort, String(limit), facet, rest.main, rest.ally, rest.q]);
  const filtered = Object.values(rest).some(Boolean);

  let page = pageParam(req);
  let start: Record<string, string> | undefined;
  if (req.query.cursor !== undefined) {
    const c = openCursor(req.query.cursor) as SearchCursor;
    const fits =
      c?.d === digest &&
      Number.isInteger(c.p) &&
      Array.isArray(c.k) &&
      c.k.every((x) => typeof x === 'string') &&
      c.k[1]?.startsWith('SEARCH#') &&
      c.k[2] === facet;
    if (!fits) throw invalidParameter('cursor belongs to another query');
    start = { facet, [`by_${sort}`]: c.k[0], pk: c.k[1], sk: c.k[2] };
    page = c.p;
  }
  const skip = start ? 0 : (page - 1) * limit;
  if (skip > MAX_SKIP) throw invalidParameter(`page is too deep; walk further with next_cursor (page × limit ≤ ${MAX_SKIP + limit})`);

  const result = await searchEntries({
    facet,
    sort,
    filters: rest,
    limit,
    skip,
    start,
    budget: filtered ? Math.min(skip * 10 + filterBudget(limit), Math.max(MAX_FILTERED_READ, filterBudget(limit))) : skip + limit + 1,
  });
  if (!result.reachedPage) throw invalidParameter('page is too deep for these filters; walk with next_cursor');
  const next = result.next && {
    d: digest,
    p: page + 1,
    k: [result.next[`by_${sort}`], result.next.pk, result.next.sk] as [string, string, string],
  };
  return {
    data: result.items.map(searchItem),
    meta: { page, limit, has_more: next !== undefined, next_cursor: next ? signCursor(next) : null },
  };
};
