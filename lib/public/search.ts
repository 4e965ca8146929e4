/**
 * GET /api/v1/decks — public decks only. The most selective single filter picks the index partition
 * (a card, then tag, then ally, then main, else all public decks); other filters (further cards,
 * excluded cards, q) are applied on a read budget of
 * max(200, 4 × limit) index items per request, numbered pages reach page × limit ≤ 1,000, and a page
 * that runs out of budget comes back short with a cursor (contract §8.1). The browsed orders — views and
 * trending, of all decks or of one faction alone — read their board's exact part first (contract §12.1:
 * exact at rest), then the index past it; the board and each deck read from it count in the budget.
 * `format` and `buildable_by` (contract §12.3) are worked out here from each entry's cards, on the same budget:
 * `buildable_by` names an account whose key the request carries (collection:read), and each item then says what
 * that collection still lacks of it.
 */

import { catalogue } from '#catalogue/load.ts';
import { authenticate, authorize } from '#http/auth.ts';
import { cursorKeyAtInit, openCursor, queryDigest, signCursor } from '#http/cursor.ts';
import { invalidParameter } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { SEARCH_ROUTES as R } from '#routes/search.ts';
import { BOARD_FACETS, BOARD_SIZE, BOARD_SORTS, type BoardSort, EMPTY_BOARD, exactPart, type Member } from '#rules/boards.ts';
import { missingOf, type Owned } from '#rules/collection.ts';
import { type Format, legalIn } from '#rules/formats.ts';
import { cursorDigestParts, firstFacet, INDEX_FILTERS, type IndexFilterParam } from '#rules/search-filters.ts';
import { searchItem } from '#shapes/deck-bodies.ts';
import { MAX_PAGE_DEPTH } from '#shapes/queries.ts';
import { readBoard } from '#store/boards.ts';
import { getItems } from '#store/bulk.ts';
import { documentClient } from '#store/client.ts';
import { getCollection } from '#store/collections.ts';
import {
  ALL_FACET,
  type CardedEntry,
  cardFacet,
  deckOfEntry,
  entryKey,
  SEARCH_ENTRY,
  type SearchEntry,
} from '#store/items/search-entry.ts';
import { type Filters, searchEntries } from '#store/search-query.ts';
import { DECKS } from '#store/tables.ts';

/** Index items one search request may read, whatever its filters (§8.1). */
export const searchBudget = (limit: number) => Math.max(200, 4 * limit);

interface SearchCursor {
  d: string;
  /** The page number the next answer reports. */
  p: number;
  /** Where to go on from in the index: the sort key, pk and sk of the last index item passed. */
  k?: [string, string, string];
  /** Where to go on from in the board's exact part (its length: the index from its start). */
  b?: number;
  /** Matches still to pass over before the page begins (a numbered page not reached within one budget). */
  s: number;
}

/** The partition a search reads — a card's, else the first faceted filter's (lib/rules/search-filters.ts), else all — and the rest. */
function facetAndRest(f: Filters): { facet: string; rest: Filters } {
  const { cards = [], excluded, ...values } = f;
  const [card, ...more] = cards;
  if (card) return { facet: cardFacet(card), rest: { ...values, cards: more, excluded } };
  const first = firstFacet(values);
  return first ? { facet: first.facet, rest: { ...first.rest, excluded } } : { facet: ALL_FACET, rest: { ...values, excluded } };
}

/** Every card filter names a card of the catalogue the service runs with (contract §8.5). */
function knownCards(name: string, ids: string[] | undefined): string[] {
  for (const id of ids ?? []) if (!catalogue().get(id)) throw invalidParameter(`${name} ${id} is not a card of the catalogue`);
  return ids ?? [];
}

const isCursor = (c: unknown, digest: string, facet: string): c is SearchCursor => {
  const x = c as Partial<SearchCursor> | null;
  const inIndex =
    Array.isArray(x?.k) &&
    x.k.length === 3 &&
    x.k.every((part) => typeof part === 'string') &&
    SEARCH_ENTRY.owns(x.k[1] ?? '') &&
    x.k[2] === facet &&
    x.b === undefined;
  const inBoard = x?.k === undefined && Number.isInteger(x?.b) && (x?.b as number) >= 0 && (x?.b as number) <= BOARD_SIZE;
  return (
    typeof x === 'object' &&
    x !== null &&
    x.d === digest &&
    Number.isInteger(x.p) &&
    Number.isInteger(x.s) &&
    (x.s as number) >= 0 &&
    (x.s as number) < MAX_PAGE_DEPTH &&
    (inIndex || inBoard)
  );
};

/** What a search keeps of the entries it reads, worked out from each deck's cards: a format, what a collection lacks. */
interface Worked {
  format?: Format;
  owned?: Owned;
  missingMax: number;
}

/** Whether an entry's deck passes what is worked out (an entry written before entries carried copies never does). */
export function keeps(w: Worked): ((e: CardedEntry) => boolean) | undefined {
  if (!w.format && !w.owned) return undefined;
  return (e) => {
    const deck = deckOfEntry(e);
    if (!deck) return false;
    if (w.format && !legalIn(deck, w.format, catalogue())) return false;
    return !w.owned || missingOf(deck, w.owned, catalogue()).total <= w.missingMax;
  };
}

/** What the collection still lacks of an entry's deck (one `keeps` passed: it carries copies). */
function lacking(e: CardedEntry, owned: Owned) {
  const { total, cards } = missingOf(deckOfEntry(e) ?? { main: e.main_faction, ally: e.ally_faction, cards: [] }, owned, catalogue());
  return { total, cards };
}

/** The collection `buildable_by` names, read with its owner's key only (collection:read; another account's is 403). */
async function collectionOf(userId: string, authorization: string | undefined): Promise<Owned> {
  authorize(await authenticate(authorization), 'collection:read', userId);
  return (await getCollection(userId))?.cards ?? {};
}

/** The board a search reads first: a browsed order (views, trending) of all decks or of one faction, with no other filter. */
const boardSort = (sort: string, facet: string, rest: Filters, worked: boolean): BoardSort | undefined =>
  !worked &&
  (BOARD_SORTS as readonly string[]).includes(sort) &&
  BOARD_FACETS.includes(facet) &&
  Object.values(rest).every((v) => v === undefined || (Array.isArray(v) && v.length === 0))
    ? (sort as BoardSort)
    : undefined;

/** A search item with the count its order is by set to `n` (the board's exact count, or the index's folded one held to the last exact). */
const withCount = (item: ReturnType<typeof searchItem>, sort: BoardSort, n: number) =>
  sort === 'views' ? { ...item, views: n } : { ...item, views_7d: n };
const countOf = (item: ReturnType<typeof searchItem>, sort: BoardSort) => (sort === 'views' ? item.views : item.views_7d);

/** A search's filters (or its feed's): the index partition it reads and what it filters on there, each card named known. */
export function deckFilters(query: Partial<Record<IndexFilterParam, string>> & { card?: string[]; exclude_card?: string[] }) {
  return facetAndRest({
    ...Object.fromEntries(INDEX_FILTERS.map((f) => [f.param, query[f.param]])),
    cards: knownCards('card', query.card),
    excluded: knownCards('exclude_card', query.exclude_card),
  });
}

export const searchPublicDecks = endpoint(R.searchDecks, { init: [catalogue, documentClient, cursorKeyAtInit] }, async (req) => {
  const { sort, limit } = req.query;
  const { facet, rest } = deckFilters(req.query);
  const { buildable_by: owner, missing_max: missingMax, format } = req.query;
  if (missingMax !== undefined && owner === undefined) throw invalidParameter('missing_max goes with buildable_by');
  const owned = owner === undefined ? undefined : await collectionOf(owner, req.headers.authorization);
  const keep = keeps({ format, owned, missingMax: missingMax ?? 0 });
  const digest = queryDigest([
    sort,
    String(limit),
    facet,
    ...cursorDigestParts(rest),
    rest.cards?.join(','),
    rest.excluded?.join(','),
    format,
    owner,
    missingMax === undefined ? undefined : String(missingMax),
  ]);

  let page = req.query.page;
  let skip = (page - 1) * limit;
  let start: Record<string, string> | undefined;
  // The board of a browsed order, its exact part first (lib/rules/boards.ts; none built: the index alone).
  const sorted = boardSort(sort, facet, rest, keep !== undefined);
  const exact = sorted ? exactPart((await readBoard(sorted, facet)) ?? EMPTY_BOARD) : [];
  let at: number | undefined;
  if (req.query.cursor !== undefined) {
    const c = await openCursor(req.query.cursor);
    if (!isCursor(c, digest, facet)) throw invalidParameter('cursor belongs to another query');
    if (c.k) start = { facet, [`by_${sort}`]: c.k[0], pk: c.k[1], sk: c.k[2] };
    else at = c.b;
    page = c.p;
    skip = c.s;
  } else if (page * limit > MAX_PAGE_DEPTH) {
    throw invalidParameter(`page × limit is at most ${MAX_PAGE_DEPTH}; walk further with meta.next_cursor`);
  } else if (sorted) {
    // A numbered page: within the exact part, or past it in the index (the exact part's decks passed over there).
    at = Math.min(skip, exact.length);
    skip -= at;
  }

  const data: ReturnType<typeof searchItem>[] = [];
  let budget = searchBudget(limit) - (sorted ? 1 : 0);
  if (sorted && at !== undefined && at < exact.length) {
    const slice = exact.slice(at, at + limit);
    // Each deck's entry of this facet (eventually consistent, in one BatchGetItem): a deck made private or deleted
    // since the board was written has none, and is left out.
    const entries = await getItems(
      slice.map((m) => entryKey(m.id, facet)),
      DECKS,
      false,
    );
    budget -= slice.length;
    entries.forEach((e, i) => {
      if (e) data.push(withCount(searchItem(e as unknown as SearchEntry), sorted, (slice[i] as Member).n));
    });
    at += slice.length;
    if (at < exact.length) {
      const next: SearchCursor = { d: digest, p: page + 1, b: at, s: 0 };
      return { data, meta: { page, limit, has_more: true, next_cursor: await signCursor(next) } };
    }
  }
  // The index: past the exact part, its decks passed over; each count held to the last exact one (a folded count
  // may lag behind, the week's ahead: a deck shown below another never shows more).
  const wanted = limit - data.length;
  const seam = exact.at(-1)?.n;
  const result = await searchEntries({
    facet,
    sort,
    filters: sorted ? { ...rest, listed: exact.map((m) => m.id) } : rest,
    // A page that ended with the exact part only asks whether the index has more.
    limit: Math.max(wanted, 1),
    skip,
    start,
    budget,
    keep,
  });
  const more = wanted === 0 ? [] : result.items;
  for (const e of more) {
    const item = owned ? { ...searchItem(e), missing: lacking(e as CardedEntry, owned) } : searchItem(e);
    data.push(sorted && seam !== undefined ? withCount(item, sorted, Math.min(countOf(item, sorted), seam)) : item);
  }
  if (wanted === 0) {
    const next: SearchCursor | undefined =
      result.items.length > 0 || result.next ? { d: digest, p: page + 1, b: exact.length, s: 0 } : undefined;
    return { data, meta: { page, limit, has_more: next !== undefined, next_cursor: next ? await signCursor(next) : null } };
  }
  // A page that ran out of budget comes back short (possibly empty) with a cursor that goes on from there.
  const left = skip - result.skipped;
  const next: SearchCursor | undefined = result.next && {
    d: digest,
    p: left > 0 ? page : page + 1,
    k: [result.next[`by_${sort}`], result.next.pk, result.next.sk] as [string, string, string],
    s: left,
  };
  return {
    data,
    meta: { page, limit, has_more: next !== undefined, next_cursor: next ? await signCursor(next) : null },
  };
});
