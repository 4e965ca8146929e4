/** The index filters of a public search, declared once (lib/rules/search-filters.ts), and what follows from them. */
import { describe, expect, it } from 'vitest';
import { cursorDigestParts, facetOf, facetsByFilter, firstFacet, INDEX_FILTERS } from '#rules/search-filters.ts';
import { SearchQuery } from '#shapes/queries.ts';
import { facetsOf } from '#store/items/search-entry.ts';

describe('index filters', () => {
  it('a deck is in the facet of each value of each faceted filter: its archetype, every tag, its ally, its main', () => {
    expect(facetsByFilter({ archetype_id: 'soviet-guards', tags: ['aggro', 'meta'], ally_faction: 'usa', main_faction: 'soviet' })).toEqual(
      ['archetype:soviet-guards', 'tag:aggro', 'tag:meta', 'ally:usa', 'main:soviet'],
    );
    const deck = {
      visibility: 'public' as const,
      main_faction: 'soviet' as const,
      ally_faction: 'usa' as const,
      tags: ['aggro'],
      deck_code: '%%4|;',
    };
    // No archetype kept (none took it, or it was written before archetypes were): no archetype facet.
    expect(facetsOf(deck, ['10', '11'])).toEqual(['all', 'tag:aggro', 'ally:usa', 'main:soviet', 'card:10', 'card:11']);
    expect(facetsOf({ ...deck, archetype: null }, [])).toEqual(['all', 'tag:aggro', 'ally:usa', 'main:soviet']);
    expect(facetsOf({ ...deck, archetype: { id: 'soviet-guards', name: 'Guards', by: 'rule' } }, [])).toEqual([
      'all',
      'archetype:soviet-guards',
      'tag:aggro',
      'ally:usa',
      'main:soviet',
    ]);
    expect(facetsOf({ ...deck, visibility: 'unlisted' }, [])).toEqual([]);
  });

  it('a search reads the first faceted filter given, in the declared order, and filters the rest on the read', () => {
    expect(firstFacet({ main_faction: 'soviet', ally_faction: 'usa', tag: 'aggro', q: 'x' })).toEqual({
      facet: 'tag:aggro',
      rest: { main_faction: 'soviet', ally_faction: 'usa', q: 'x' },
    });
    expect(firstFacet({ main_faction: 'soviet', ally_faction: 'usa' })).toEqual({
      facet: 'ally:usa',
      rest: { main_faction: 'soviet' },
    });
    expect(firstFacet({ main_faction: 'germany' })).toEqual({ facet: 'main:germany', rest: {} });
    // An archetype is the most selective: its partition, whatever else is given.
    expect(firstFacet({ tag: 'aggro', archetype: 'soviet-guards', main_faction: 'soviet' })).toEqual({
      facet: 'archetype:soviet-guards',
      rest: { tag: 'aggro', main_faction: 'soviet' },
    });
    // Text alone has no partition of its own.
    expect(firstFacet({ q: 'rush' })).toBeUndefined();
    expect(facetOf('main_faction', 'japan')).toBe('main:japan');
  });

  it("each filter is a parameter of the search's query, read as the declaration says; the digest holds every one in order", () => {
    const params = Object.keys(SearchQuery.entries);
    for (const f of INDEX_FILTERS) expect(params, f.param).toContain(f.param);
    // A cursor's digest holds the filters in the places cursors were first issued with — tag, main, ally, q — so a
    // cursor a client holds stays good across a deploy (the declaration's order once moved main and ally: hostile review).
    expect(cursorDigestParts({ q: 'z', tag: 'a', ally_faction: 'usa', main_faction: 'soviet' })).toEqual(['a', 'soviet', 'usa', 'z']);
    expect(cursorDigestParts({ main_faction: 'soviet' })).toEqual([undefined, 'soviet', undefined, undefined]);
    // A filter added since is digested only when given, by name: a cursor issued without it keeps its digest.
    expect(cursorDigestParts({ main_faction: 'soviet', archetype: 'soviet-guards' })).toEqual([
      undefined,
      'soviet',
      undefined,
      undefined,
      'archetype=soviet-guards',
    ]);
    expect(new Set(INDEX_FILTERS.map((f) => f.param)).size).toBe(INDEX_FILTERS.length);
  });
});
