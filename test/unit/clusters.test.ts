/**
 * Clusters for the decks no rule takes (contract §13.3; lib/rules/clusters.ts): HSReplay's signatures (core in ≥ 80% of
 * a cluster's decks, tech in ≥ 30%), ids that stay while a signature holds, the same clusters whatever the order the
 * library is read in, and one deck added moving no other group's cluster.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { RARITIES } from '#rules/catalogue.ts';
import { anchorsOf, CLUSTERING, type ClusterCatalogue, type ClusterDeck, clusterId, clusterName, clustersOf } from '#rules/clusters.ts';
import { type CardCount, parseDeckCode } from '#rules/deck-code.ts';
import type { FactionId } from '#rules/factions.ts';
import { legalCode } from '../support/decks.ts';

const demo = demoCatalogue();
const catalogue: ClusterCatalogue = {
  factionOf: (id) => demo.get(id)?.faction,
  rank: (id) => RARITIES.indexOf(demo.get(id)?.rarity ?? 'standard'),
};

/**
 * A demo deck (`base` varies the cards) and `n` near-copies of it: each with one of its ally's cards a copy or more
 * short (an ally's card is never an anchor: its main nation's are), one after another.
 */
function family(main: FactionId, ally: FactionId, base: number, n: number, prefix: string): ClusterDeck<string>[] {
  const cards = parseDeckCode(legalCode(demo, main, ally, 12, base)).cards;
  const allied = cards.filter((c) => demo.get(c.card_id)?.faction !== main).map((c) => c.card_id);
  return Array.from({ length: n }, (_, i) => {
    const short = allied[i % allied.length];
    const by = 1 + Math.floor(i / allied.length);
    return {
      ref: `${prefix}${i}`,
      main,
      cards: cards.map((c) => (c.card_id === short ? { ...c, count: c.count - by } : c)).filter((c) => c.count > 0),
    };
  });
}
const idsOf = (decks: ClusterDeck<string>[]) => {
  const { clusterOf } = clustersOf(decks, catalogue);
  return Object.fromEntries(decks.map((d) => [d.ref, clusterOf.get(d.ref)?.id ?? null]));
};

describe('clusters', () => {
  const library = [
    ...family('soviet', 'usa', 0, 7, 'sa'),
    ...family('soviet', 'britain', 3, 6, 'sb'),
    ...family('germany', 'italy', 1, 5, 'ga'),
    ...family('japan', 'usa', 2, 3, 'ja'),
  ];

  it('a group of at least MIN_DECKS decks with the same anchors is a cluster of its nation; a smaller one is none', () => {
    const { clusters, clusterOf } = clustersOf(library, catalogue);
    // The groups, by nation and anchors, worked out here: those of five decks or more are the clusters.
    const groups = new Map<string, number>();
    for (const d of library) {
      const key = `${d.main}:${anchorsOf(d, catalogue).join(',')}`;
      groups.set(key, (groups.get(key) ?? 0) + 1);
    }
    const big = [...groups].filter(([, n]) => n >= CLUSTERING.minDecks).map(([key]) => key);
    expect(big.length).toBeGreaterThanOrEqual(2);
    expect(clusters.map((c) => `${c.main}:${c.anchors.join(',')}`).sort()).toEqual(big.sort());
    for (const c of clusters) {
      expect(c.id).toBe(clusterId(c.main, c.core));
      expect(c.id).toMatch(/^cluster-(soviet|germany)-[0-9a-f]{12}$/);
      // Anchors are in every deck of the group: in the core.
      for (const a of c.anchors) expect(c.core).toContain(a);
      expect(c.decks).toBeGreaterThanOrEqual(CLUSTERING.minDecks);
    }
    // Japan's three near-copies are too few: none.
    for (const d of library.filter((x) => x.ref.startsWith('ja'))) expect(clusterOf.has(d.ref)).toBe(false);
  });

  it('core: in at least 80% of the decks; tech: in at least 30% and under 80%; the rest neither', () => {
    const anchors = ['2B', '2C'];
    const deckOf = (i: number, extra: string[]): ClusterDeck<string> => ({
      ref: `d${i}`,
      main: 'soviet',
      cards: [...anchors.map((card_id) => ({ card_id, count: 4 })), ...extra.map((card_id) => ({ card_id, count: 1 }))] as CardCount[],
    });
    // Of ten decks: 2D in 8 (core), 2E in 3 (tech), 2F in 2 (neither).
    const decks = Array.from({ length: 10 }, (_, i) =>
      deckOf(i, [...(i < 8 ? ['2D'] : []), ...(i < 3 ? ['2E'] : []), ...(i >= 8 ? ['2F'] : [])]),
    );
    const [cluster] = clustersOf(decks, catalogue).clusters;
    expect(cluster?.core).toEqual(['2B', '2C', '2D']);
    expect(cluster?.tech).toEqual(['2E']);
    expect(cluster?.anchors).toEqual(anchors);
  });

  it('a deck of a smaller group joins the cluster whose core it holds at least 80% of (card overlap)', () => {
    const [sa] = family('soviet', 'usa', 0, 1, 'x');
    const { clusterOf } = clustersOf(library, catalogue);
    const target = clusterOf.get('sa0');
    // The same cards, two of them one copy fewer: other anchors, most of the core held.
    const core = new Set(target?.core);
    const moved = (sa?.cards ?? []).map((c, i) => (core.has(c.card_id) && i % 3 === 0 ? { ...c, count: Math.max(1, c.count - 3) } : c));
    const joining: ClusterDeck<string> = { ref: 'joiner', main: 'soviet', cards: moved };
    const after = clustersOf([...library, joining], catalogue);
    expect(after.clusterOf.get('joiner')?.id).toBe(target?.id);
    // Joining moves no signature: the cluster is its groups'.
    expect(after.clusters.find((c) => c.id === target?.id)?.decks).toBe(target?.decks);
  });

  it('deterministic: the library in any order makes the same clusters, ids and assignment', () => {
    const once = clustersOf(library, catalogue);
    fc.assert(
      fc.property(fc.shuffledSubarray(library, { minLength: library.length, maxLength: library.length }), (shuffled) => {
        const again = clustersOf(shuffled, catalogue);
        expect(again.clusters).toEqual(once.clusters);
        expect(idsOf(shuffled)).toEqual(idsOf(library));
      }),
      { numRuns: 30 },
    );
  });

  it('stable: one deck added (any demo deck) changes the cluster of no deck of another group', () => {
    const before = clustersOf(library, catalogue);
    const groupOf = (ref: string) => before.clusterOf.get(ref);
    fc.assert(
      fc.property(fc.constantFrom<FactionId>('soviet', 'germany', 'japan'), fc.nat(40), fc.nat(5), (main, base, drop) => {
        const [added] = family(main, main === 'soviet' ? 'usa' : main === 'germany' ? 'italy' : 'usa', base, drop + 1, 'new').slice(drop);
        const after = clustersOf([...library, added as ClusterDeck<string>], catalogue);
        const joinedGroup = after.clusterOf.get('new0');
        for (const d of library) {
          const was = groupOf(d.ref);
          // A deck of a cluster's group keeps its id unless the new deck joined that very group (its core may move).
          if (was && after.clusters.some((c) => c.id === was.id && c.decks === was.decks))
            expect([d.ref, after.clusterOf.get(d.ref)?.id]).toEqual([d.ref, was.id]);
          if (was && joinedGroup?.id !== was.id) expect([d.ref, after.clusterOf.get(d.ref)?.id]).toEqual([d.ref, was.id]);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('named by its nation and anchors, within 60 UTF-16 units (one anchor, cut, when two do not fit)', () => {
    const [cluster] = clustersOf(library, catalogue).clusters;
    if (!cluster) throw new Error('no cluster');
    expect(clusterName(cluster, 'Soviet Union', (id) => `Card ${id}`, 60)).toBe(
      `Soviet Union · ${cluster.anchors.map((a) => `Card ${a}`).join(' and ')}`,
    );
    const long = clusterName(cluster, 'Soviet Union', () => '𝔏'.repeat(40), 60);
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.endsWith('…')).toBe(true);
    expect(long.isWellFormed()).toBe(true);
  });
});
