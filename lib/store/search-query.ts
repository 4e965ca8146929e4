/**
 * Reading the search index: one facet's partition of one sort's index, read in order. Without
 * extra filters a page reads exactly what it returns, plus one item to know whether more follow.
 * Extra filters (a second facet, q) are applied by DynamoDB on a bounded read budget: a page may then
 * come back short, with a cursor to go on from where the budget ran out.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { INDEX_FILTERS, type IndexFilter, type IndexFilterValues } from '#rules/search-filters.ts';
import { documentClient } from './client.ts';
import {
  CARDED_PROJECTION,
  type CardedEntry,
  cardFacet,
  SEARCH_PROJECTION,
  type SearchEntry,
  SORT_INDEX,
  type Sort,
} from './items/search-entry.ts';
import { DECKS, tableName } from './tables.ts';

/** What a search filters on the read: the index filters (lib/rules/search-filters.ts) not already its partition, and cards. */
export interface Filters extends IndexFilterValues {
  /** Card ids the deck holds, every one. */
  cards?: string[];
  /** Card ids the deck holds none of. */
  excluded?: string[];
  /** Decks listed already, from a board (at most 100: DynamoDB's IN takes 100 operands). */
  listed?: string[];
}

export interface SearchQuery {
  facet: string;
  sort: Sort;
  /** Filters not already implied by the facet. */
  filters: Filters;
  limit: number;
  /** Matches to pass over first (page numbers). */
  skip: number;
  /** Where to go on from (a cursor's position). */
  start?: Record<string, string>;
  /** Most index items one request may read. */
  budget: number;
  /**
   * What DynamoDB cannot filter on, worked out here from each entry read with its deck's cards (a collection, a
   * format): an entry it refuses is passed over as a filtered one is, on the same budget.
   */
  keep?: (e: CardedEntry) => boolean;
  /** Read each entry with its deck's cards (as `keep` does) though none is refused: a feed shows them. */
  carded?: true;
}

export interface SearchPage<E extends SearchEntry = SearchEntry> {
  items: E[];
  /** Position after the page, when more may follow. */
  next?: Record<string, string>;
  /** Matches passed over (at most `skip`): fewer when the budget ran out first. */
  skipped: number;
  /** Index items read (ScannedCount summed over the queries). */
  scanned: number;
}

/** An index filter's condition on its value (`:<param>`): equal to it, or holding it (a list's element, a text's part). */
const conditionOf = (f: IndexFilter): string =>
  f.test === 'equals' ? `${f.attribute} = :${f.param}` : `contains(${f.attribute}, :${f.param})`;

/** The DynamoDB filter for what the partition does not already imply (`cards` is a list: contains = holds). */
function filterExpression(f: Filters): { expression?: string; values: Record<string, string> } {
  const given = INDEX_FILTERS.filter((filter) => f[filter.param] !== undefined);
  const conditions: string[] = given.map(conditionOf);
  const values: Record<string, string> = Object.fromEntries(given.map((filter) => [`:${filter.param}`, f[filter.param] as string]));
  for (const [i, id] of (f.cards ?? []).entries()) {
    conditions.push(`contains(cards, :card${i})`);
    values[`:card${i}`] = id;
  }
  for (const [i, id] of (f.excluded ?? []).entries()) {
    conditions.push(`NOT contains(cards, :excluded${i})`);
    values[`:excluded${i}`] = id;
  }
  if (f.listed?.length) {
    conditions.push(`NOT (deck_id IN (${f.listed.map((_, i) => `:listed${i}`).join(', ')}))`);
    f.listed.forEach((id, i) => {
      values[`:listed${i}`] = id;
    });
  }
  return { expression: conditions.length ? conditions.join(' AND ') : undefined, values };
}

/** The index position of an entry: what DynamoDB's LastEvaluatedKey would be after it. */
export const positionOf = (e: SearchEntry, sort: Sort): Record<string, string> => {
  const key = SORT_INDEX[sort].key as `by_${Sort}`;
  return { facet: e.facet, [key]: e[key] as string, pk: e.pk, sk: e.sk };
};

export async function searchEntries(
  q: SearchQuery & ({ keep: SearchQuery['keep'] & {} } | { carded: true }),
): Promise<SearchPage<CardedEntry>>;
export async function searchEntries(q: SearchQuery): Promise<SearchPage>;
export async function searchEntries(q: SearchQuery): Promise<SearchPage> {
  const { index } = SORT_INDEX[q.sort];
  const filter = filterExpression(q.filters);
  const filtered = filter.expression !== undefined || q.keep !== undefined;
  const want = q.skip + q.limit + 1;
  const matched: SearchEntry[] = [];
  let scanned = 0;
  let start = q.start;
  do {
    const room = q.budget - scanned;
    if (room <= 0) break;
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(DECKS),
        IndexName: index,
        KeyConditionExpression: 'facet = :facet',
        FilterExpression: filter.expression,
        ...(q.keep || q.carded ? CARDED_PROJECTION : SEARCH_PROJECTION),
        ExpressionAttributeValues: { ':facet': q.facet, ...filter.values },
        ExclusiveStartKey: start,
        // Without a filter every item read is a match: read exactly what is wanted. With one, read
        // twice what is still wanted (at least 25) per call, so a common match stops early.
        Limit: Math.min(room, filtered ? Math.max(25, 2 * (want - matched.length)) : want - matched.length),
      }),
    );
    scanned += page.ScannedCount ?? 0;
    const items = (page.Items ?? []) as CardedEntry[];
    matched.push(...(q.keep ? items.filter(q.keep) : items));
    start = page.LastEvaluatedKey as Record<string, string> | undefined;
  } while (start && matched.length < want);

  const items = matched.slice(q.skip, q.skip + q.limit);
  const last = items.at(-1);
  const skipped = Math.min(q.skip, matched.length);
  if (matched.length > q.skip + q.limit && last) return { items, next: positionOf(last, q.sort), skipped, scanned };
  // Not all read: the budget ran out. Go on from the last item read (a match or not).
  return { items, next: start, skipped, scanned };
}

/** The `most` most viewed public decks of a facet's partition: at most `most` items read. */
export async function mostViewed(facet: string, most: number): Promise<SearchEntry[]> {
  return (await searchEntries({ facet, sort: 'views', filters: {}, limit: most, skip: 0, budget: most })).items;
}

/** The public decks of a main nation that hold a card, with their cards: the `most` most viewed of its partition, at most `most` items read. */
export async function cardPartition(cardId: string, main: string, most: number): Promise<CardedEntry[]> {
  const page = await searchEntries({
    facet: cardFacet(cardId),
    sort: 'views',
    filters: { main_faction: main },
    limit: most,
    skip: 0,
    budget: most,
    keep: () => true,
  });
  return page.items;
}
