/**
 * The filters of a public search the index answers (contract §8.1), declared once: the query parameter, the attribute
 * of a deck's search entry it tests — equal to the value, or holding it (a tag in the list, text within the name and
 * system) — and, for a filter with partitions of its own, the facet each value is one of. Their order is the order a
 * search picks its partition in: a card first (lib/public/search.ts), then the first filter here given with a facet,
 * the most selective first; the rest are filtered on the read. The query's schema (lib/shapes/queries.ts), the
 * entries' facets (lib/store/items/search-entry.ts facetsOf), the store's conditions (lib/store/search-query.ts) and
 * the cursor's digest (cursorDigestParts) follow from it.
 */
export const INDEX_FILTERS = [
  { param: 'archetype', attribute: 'archetype_id', test: 'equals', facet: 'archetype' },
  { param: 'tag', attribute: 'tags', test: 'holds', facet: 'tag', cursorPlace: 0 },
  { param: 'ally_faction', attribute: 'ally_faction', test: 'equals', facet: 'ally', cursorPlace: 2 },
  { param: 'main_faction', attribute: 'main_faction', test: 'equals', facet: 'main', cursorPlace: 1 },
  { param: 'q', attribute: 'search_text', test: 'holds', cursorPlace: 3 },
] as const satisfies readonly IndexFilter[];

export interface IndexFilter {
  param: string;
  attribute: string;
  test: 'equals' | 'holds';
  /** A facet's prefix: `<facet>:<value>` is a partition of the search index. */
  facet?: string;
  /**
   * Its place in a cursor's digest, for the filters cursors were first issued with (a cursor a client holds stays good
   * across a deploy); a filter added since has none, and is digested only when given (cursorDigestParts).
   */
  cursorPlace?: number;
}

export type IndexFilterParam = (typeof INDEX_FILTERS)[number]['param'];
/** What a search is filtered by on the index, each by its parameter's name. */
export type IndexFilterValues = { [P in IndexFilterParam]?: string };
/** A filter with a facet of its own. */
type Faceted = Extract<(typeof INDEX_FILTERS)[number], { facet: string }>;
export type FacetParam = Faceted['param'];

const FACETED = INDEX_FILTERS.filter((f): f is Faceted => 'facet' in f);

/** The facet of a filter's value. */
export const facetOf = (param: FacetParam, value: string): string =>
  `${(FACETED.find((f) => f.param === param) as Faceted).facet}:${value}`;

/** The facets a public deck is in, by what its entry holds (each filter's attribute: one value, or a list; none: no facet). */
export const facetsByFilter = (entry: { [A in Faceted['attribute']]: string | readonly string[] }): string[] =>
  FACETED.flatMap((f) => [entry[f.attribute]].flat().map((value) => `${f.facet}:${value}`));

/**
 * The partition a search reads (the first faceted filter given) and what is left to filter on the read; undefined
 * when none is given.
 */
export function firstFacet(values: IndexFilterValues): { facet: string; rest: IndexFilterValues } | undefined {
  const picked = FACETED.find((f) => values[f.param] !== undefined);
  if (!picked) return undefined;
  const { [picked.param]: value, ...rest } = values;
  return { facet: `${picked.facet}:${value}`, rest };
}

/** What a cursor's digest holds of the index filters: the first ones' values in their places, then each later one given. */
export function cursorDigestParts(values: IndexFilterValues): (string | undefined)[] {
  const placed: (string | undefined)[] = [];
  const later: string[] = [];
  for (const f of INDEX_FILTERS as readonly IndexFilter[]) {
    const value = values[f.param as IndexFilterParam];
    if (f.cursorPlace !== undefined) placed[f.cursorPlace] = value;
    else if (value !== undefined) later.push(`${f.param}=${value}`);
  }
  return [...placed, ...later];
}
