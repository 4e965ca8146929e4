/**
 * GET /api/v1/decks — public decks only. The most selective single filter picks the index partition
 * (a card, then tag, then ally, then main, else all public decks); other filters (further cards,
 * excluded cards, q) are applied on a read budget of
 * max(200, 4 × limit) index items per request, numbered pages reach page × limit ≤ 1,000, and a page
 * that runs out of budget comes back short with a cursor (contract §8.1).
 */

import { catalogue } from '#catalogue/load.ts';
import { cursorKeyAtInit, openCursor, queryDigest, signCursor } from '#http/cursor.ts';
import { invalidParameter } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import * as R from '#routes/search.ts';
import { searchItem } from '#shapes/deck-bodies.ts';
import { MAX_PAGE_DEPTH } from '#shapes/queries.ts';
import { documentClient } from '#store/client.ts';
import { cardFacet, SEARCH_ENTRY } from '#store/items/search-entry.ts';
import { type Filters, searchEntries } from '#store/search-query.ts';

/** Index items one search request may read, whatever its filters (§8.1). */
export const searchBudget = (limit: number) => Math.max(200, 4 * limit);

interface SearchCursor {
  d: string;
  /** The page number the next answer reports. */
  p: number;
  /** Where to go on from: the sort key, pk and sk of the last index item passed. */
  k: [string, string, string];
  /** Matches still to pass over before the page begins (a numbered page not reached within one budget). */
  s: number;
}

function facetAndRest(f: Filters): { facet: string; rest: Filters } {
  const { tag, ally, main, q, cards = [], excluded } = f;
  const [card, ...more] = cards;
  if (card) return { facet: cardFacet(card), rest: { tag, ally, main, q, cards: more, excluded } };
  if (tag) return { facet: `tag:${tag}`, rest: { ally, main, q, excluded } };
  if (ally) return { facet: `ally:${ally}`, rest: { main, q, excluded } };
  if (main) return { facet: `main:${main}`, rest: { q, excluded } };
  return { facet: 'all', rest: { q, excluded } };
}

/** Every card filter names a card of the catalogue the service runs with (contract §8.5). */
function knownCards(name: string, ids: string[] | undefined): string[] {
  for (const id of ids ?? []) if (!catalogue().get(id)) throw invalidParameter(`${name} ${id} is not a card of the catalogue`);
  return ids ?? [];
}

const isCursor = (c: unknown, digest: string, facet: string): c is SearchCursor => {
  const x = c as Partial<SearchCursor> | null;
  return (
    typeof x === 'object' &&
    x !== null &&
    x.d === digest &&
    Number.isInteger(x.p) &&
    Number.isInteger(x.s) &&
    (x.s as number) >= 0 &&
    (x.s as number) < MAX_PAGE_DEPTH &&
    Array.isArray(x.k) &&
    x.k.length === 3 &&
    x.k.every((part) => typeof part === 'string') &&
    SEARCH_ENTRY.owns(x.k[1] ?? '') &&
    x.k[2] === facet
  );
};

export const searchPublicDecks = endpoint(R.searchDecks, { init: [catalogue, documentClient, cursorKeyAtInit] }, async (req) => {
  const { sort, limit } = req.query;
  const filters: Filters = {
    main: req.query.main_faction,
    ally: req.query.ally_faction,
    tag: req.query.tag,
    q: req.query.q,
    cards: knownCards('card', req.query.card),
    excluded: knownCards('exclude_card', req.query.exclude_card),
  };
  const { facet, rest } = facetAndRest(filters);
  const digest = queryDigest([
    sort,
    String(limit),
    facet,
    rest.tag,
    rest.main,
    rest.ally,
    rest.q,
    rest.cards?.join(','),
    rest.excluded?.join(','),
  ]);

  let page = req.query.page;
  let skip = (page - 1) * limit;
  let start: Record<string, string> | undefined;
  if (req.query.cursor !== undefined) {
    const c = await openCursor(req.query.cursor);
    if (!isCursor(c, digest, facet)) throw invalidParameter('cursor belongs to another query');
    start = { facet, [`by_${sort}`]: c.k[0], pk: c.k[1], sk: c.k[2] };
    page = c.p;
    skip = c.s;
  } else if (page * limit > MAX_PAGE_DEPTH) {
    throw invalidParameter(`page × limit is at most ${MAX_PAGE_DEPTH}; walk further with meta.next_cursor`);
  }

  const result = await searchEntries({ facet, sort, filters: rest, limit, skip, start, budget: searchBudget(limit) });
  // A page that ran out of budget comes back short (possibly empty) with a cursor that goes on from there.
  const left = skip - result.skipped;
  const next = result.next && {
    d: digest,
    p: left > 0 ? page : page + 1,
    k: [result.next[`by_${sort}`], result.next.pk, result.next.sk] as [string, string, string],
    s: left,
  };
  return {
    data: result.items.map(searchItem),
    meta: { page, limit, has_more: next !== undefined, next_cursor: next ? await signCursor(next) : null },
  };
});
