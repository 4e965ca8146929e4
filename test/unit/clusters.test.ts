/**
 * Clusters for the decks no rule takes (contract §13.3; lib/rules/clusters.ts): HSReplay's signatures (core in ≥ 80% of
 * a cluster's decks, tech in ≥ 30%), ids that stay while a cluster does, the same clusters whatever the order the
 * library is read in, and one deck added moving no other deck's cluster (random libraries: hostile review's).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { RARITIES, type Rarity } from '#rules/catalogue.ts';
import { anchorsOf, CLUSTERING, type ClusterCatalogue, type ClusterDeck, clusterId, clusterName, clustersOf } from '#rules/clusters.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
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
function family(main: FactionId, ally: FactionId, base: number, n: number): ClusterDeck[] {
  const cards = parseDeckCode(legalCode(demo, main, ally, 12, base)).cards;
  const allied = cards.filter((c) => demo.get(c.card_id)?.faction !== main).map((c) => c.card_id);
  return Array.from({ length: n }, (_, i) => {
    const short = allied[i % allied.length];
    const by = 1 + Math.floor(i / allied.length);
    return { main, cards: cards.map((c) => (c.card_id === short ? { ...c, count: c.count - by } : c)).filter((c) => c.count > 0) };
  });
}

/** A small invented pool (cards `<nation><n>` of each rarity, an ally's `a<n>`) for random libraries. */
const POOL_RARITY: Rarity[] = ['standard', 'standard', 'standard', 'limited', 'special', 'elite'];
const small: ClusterCatalogue = {
  factionOf: (id) => (id.startsWith('a') ? 'ally' : id.startsWith('g') ? 'germany' : id.startsWith('s') ? 'soviet' : undefined),
  rank: (id) => RARITIES.indexOf(POOL_RARITY[Number(id.slice(1)) % POOL_RARITY.length] as Rarity),
};
const randomDeck = fc
  .record({
    main: fc.constantFrom('germany', 'soviet'),
    own: fc.uniqueArray(fc.record({ n: fc.nat(7), count: fc.integer({ min: 1, max: 4 }) }), {
      minLength: 1,
      maxLength: 6,
      selector: (c) => c.n,
    }),
    ally: fc.uniqueArray(fc.record({ n: fc.nat(3), count: fc.integer({ min: 1, max: 4 }) }), { maxLength: 3, selector: (c) => c.n }),
  })
  .map(({ main, own, ally }) => ({
    main,
    cards: [
      ...own.map((c) => ({ card_id: `${main[0]}${c.n}`, count: c.count })),
      ...ally.map((c) => ({ card_id: `a${c.n}`, count: c.count })),
    ],
  }));

describe('clusters', () => {
  const library = [
    ...family('soviet', 'usa', 0, 7),
    ...family('soviet', 'britain', 3, 6),
    ...family('germany', 'italy', 1, 5),
    ...family('japan', 'usa', 2, 3),
  ];

  it('a group of at least MIN_DECKS decks with the same anchors is a cluster of its nation, its id its anchors’; a smaller one is none', () => {
    const { clusters, of } = clustersOf(library, catalogue);
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
      expect(c.id).toBe(clusterId(c.main, c.anchors));
      expect(c.id).toMatch(/^cluster-(soviet|germany)-[0-9a-f]{12}$/);
      for (const a of c.anchors) expect(c.core).toContain(a);
      expect(c.decks).toBe(groups.get(`${c.main}:${c.anchors.join(',')}`));
    }
    // Japan's three near-copies are too few: none.
    for (const d of library.filter((x) => x.main === 'japan')) expect(of(d)).toBeUndefined();
  });

  it('core: in at least 80% of the decks; tech: in at least 30% and under 80%; the rest neither', () => {
    const deckOf = (extra: string[]): ClusterDeck => ({
      main: 'soviet',
      cards: [...['2B', '2C'].map((card_id) => ({ card_id, count: 4 })), ...extra.map((card_id) => ({ card_id, count: 1 }))],
    });
    // Of ten decks: 4a in 8 (core), 4b in 3 (tech), 4c in 2 (neither) — an ally's cards, never anchors.
    const decks = Array.from({ length: 10 }, (_, i) =>
      deckOf([...(i < 8 ? ['4a'] : []), ...(i < 3 ? ['4b'] : []), ...(i >= 8 ? ['4c'] : [])]),
    );
    const [cluster] = clustersOf(decks, catalogue).clusters;
    expect(cluster?.anchors).toEqual(['2B', '2C']);
    expect(cluster?.core).toEqual(['2B', '2C', '4a']);
    expect(cluster?.tech).toEqual(['4b']);
  });

  it('anchors: the rarest of its nation’s cards first (only standard cards reach 4 copies), then the most copies, then the id', () => {
    const main = 'germany';
    const of = (r: Rarity) => demo.cards.filter((c) => c.faction === main && c.rarity === r && !c.derived).map((c) => c.card_id);
    const [elite, special, standard] = [of('elite')[0], of('special')[0], of('standard')] as [string, string, string[]];
    const deck = {
      main,
      cards: [
        ...standard.slice(0, 6).map((card_id) => ({ card_id, count: 4 })),
        { card_id: special, count: 1 },
        { card_id: elite, count: 1 },
      ],
    };
    expect(anchorsOf(deck, catalogue)).toEqual([elite, special].sort());
  });

  it('two builds that share only staples are two clusters, each of its own signature cards (hostile review)', () => {
    const [eliteA, eliteB] = demo.cards.filter((c) => c.faction === 'germany' && c.rarity === 'elite' && !c.derived).map((c) => c.card_id);
    const [specA, specB] = demo.cards.filter((c) => c.faction === 'germany' && c.rarity === 'special' && !c.derived).map((c) => c.card_id);
    const staples = demo.cards.filter((c) => c.faction === 'germany' && c.rarity === 'standard' && !c.derived).slice(0, 6);
    const build = (signature: string[], i: number): ClusterDeck => ({
      main: 'germany',
      cards: [
        ...staples.slice(i % 2, 5 + (i % 2)).map((c) => ({ card_id: c.card_id, count: 4 })),
        ...signature.map((card_id) => ({ card_id, count: 2 })),
      ],
    });
    const blitz = Array.from({ length: 7 }, (_, i) => build([eliteA as string, specA as string], i));
    const armor = Array.from({ length: 6 }, (_, i) => build([eliteB as string, specB as string], i));
    const { clusters, of } = clustersOf([...blitz, ...armor], catalogue);
    expect(clusters).toHaveLength(2);
    expect(new Set(blitz.map((d) => of(d)?.id)).size).toBe(1);
    expect(new Set(armor.map((d) => of(d)?.id)).size).toBe(1);
    expect(of(blitz[0] as ClusterDeck)?.id).not.toBe(of(armor[0] as ClusterDeck)?.id);
  });

  it('an id stays while its cluster does: a core card crossing 80% moves no id (hostile review: a 100-deck cluster renamed)', () => {
    const deckOf = (withX: boolean): ClusterDeck => ({
      main: 'soviet',
      cards: [{ card_id: '2B', count: 4 }, { card_id: '2C', count: 4 }, ...(withX ? [{ card_id: '4a', count: 1 }] : [])],
    });
    const decks = Array.from({ length: 100 }, (_, i) => deckOf(i < 80));
    const before = clustersOf(decks, catalogue).clusters[0];
    const after = clustersOf([...decks, deckOf(false)], catalogue).clusters[0];
    expect(before?.core).toContain('4a');
    expect(after?.core).not.toContain('4a');
    expect(after?.id).toBe(before?.id);
  });

  it('deterministic: any library in any order makes the same clusters and gives each deck the same', () => {
    fc.assert(
      fc.property(fc.array(randomDeck, { maxLength: 60 }), fc.infiniteStream(fc.nat()), (decks, seeds) => {
        const shuffled = decks
          .map((d) => ({ d, k: seeds.next().value }))
          .sort((a, b) => a.k - b.k)
          .map(({ d }) => d);
        const once = clustersOf(decks, small);
        const again = clustersOf(shuffled, small);
        expect(again.clusters).toEqual(once.clusters);
        for (const d of decks) expect(again.of(d)?.id).toBe(once.of(d)?.id);
      }),
      { numRuns: 200 },
    );
  });

  it('stable: one deck added changes no other deck’s cluster — but that its group may become one', () => {
    fc.assert(
      fc.property(fc.array(randomDeck, { minLength: 1, maxLength: 80 }), randomDeck, fc.nat(), fc.boolean(), (decks, other, i, copy) => {
        // Half the time a copy of a deck of the library: it joins that deck's group (a cluster, often).
        const added = copy ? (decks[i % decks.length] as ClusterDeck) : other;
        const before = clustersOf(decks, small);
        const after = clustersOf([...decks, added], small);
        const addedGroup = `${added.main}:${anchorsOf(added, small).join(',')}`;
        for (const d of decks) {
          const was = before.of(d)?.id;
          const now = after.of(d)?.id;
          if (was !== undefined) expect(now).toBe(was);
          else if (now !== undefined) expect(`${d.main}:${anchorsOf(d, small).join(',')}`).toBe(addedGroup);
        }
      }),
      { numRuns: 300 },
    );
    // A library where the added deck completes a group of five: its four decks get the cluster, no other deck moves.
    const four = family('germany', 'italy', 1, 4);
    const [fifth] = family('germany', 'italy', 1, 5).slice(4);
    expect(clustersOf(four, catalogue).clusters).toEqual([]);
    const made = clustersOf([...four, fifth as ClusterDeck], catalogue);
    expect(made.clusters).toHaveLength(1);
    for (const d of four) expect(made.of(d)?.id).toBe(made.clusters[0]?.id);
  });

  it('named by its nation and anchors, within 60 UTF-16 units (one anchor, cut, when two do not fit); names trimmed', () => {
    const [cluster] = clustersOf(library, catalogue).clusters;
    if (!cluster) throw new Error('no cluster');
    expect(clusterName(cluster, 'Soviet Union', (id) => ` Card ${id} `, 60)).toBe(
      `Soviet Union · ${cluster.anchors.map((a) => `Card ${a}`).join(' · ')}`,
    );
    const long = clusterName(cluster, 'Soviet Union', () => '𝔏'.repeat(40), 60);
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.endsWith('…')).toBe(true);
    expect(long.isWellFormed()).toBe(true);
  });
});
