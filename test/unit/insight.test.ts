/**
 * Deck insight (contract §8.6): stats add up to the 39 cards; legality follows the catalogue; the OTK
 * probabilities equal an independent exact computation, agree with a simulation, and behave at the edges.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { makeCatalogue } from '#rules/catalogue.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { DECK_SIZE } from '#rules/deck-rules.ts';
import { FACTIONS, type FactionId, MAIN_FACTION_IDS } from '#rules/factions.ts';
import { deckStats, drawProbabilities, legality } from '#rules/insight.ts';
import { legalCode, legalDeck } from '../support/decks.ts';

const demo = demoCatalogue();
const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
const pairs = MAIN_FACTION_IDS.flatMap((main) => FACTIONS.filter((f) => f.id !== main).map((f) => [main, f.id] as [FactionId, FactionId]));

describe('stats', () => {
  it.each(pairs)('%s / %s: every count adds up to 39; 12 ally cards; every type and rarity key', (main, ally) => {
    const stats = deckStats(parseDeckCode(legalCode(demo, main, ally)), demo);
    expect([sum(stats.by_kredits), sum(stats.by_type), sum(stats.by_rarity)]).toEqual([39, 39, 39]);
    expect(stats.ally_cards).toBe(12);
    expect(Object.keys(stats.by_type).sort()).toEqual(['artillery', 'bomber', 'countermeasure', 'fighter', 'infantry', 'order', 'tank']);
    expect(Object.keys(stats.by_rarity).sort()).toEqual(['elite', 'limited', 'special', 'standard']);
    for (const k of Object.keys(stats.by_kredits)) expect(k).toMatch(/^\d+$/);
  });

  it('property: any legal deck (any pair, ally count, choice of cards) sums to 39 with its ally count', () => {
    fc.assert(
      fc.property(fc.constantFrom(...pairs), fc.integer({ min: 0, max: 12 }), fc.nat(50), ([main, ally], allyCopies, offset) => {
        const deck = { main, ally, cards: legalDeck(demo, main, ally, allyCopies, offset) };
        expect(legality(deck, demo).valid).toBe(true);
        const stats = deckStats(deck, demo);
        expect([sum(stats.by_kredits), sum(stats.by_type), sum(stats.by_rarity)]).toEqual([39, 39, 39]);
        expect(stats.ally_cards).toBe(allyCopies);
        expect(stats.neutral_cards).toBe(0);
      }),
      { numRuns: 200 },
    );
  });
});

describe('legality against the catalogue the service runs with now', () => {
  it('a card that becomes elite makes a deck with 4 copies of it illegal: copy_limit naming that card', () => {
    const deck = parseDeckCode(legalCode(demo, 'soviet', 'usa'));
    const four = deck.cards.find((c) => c.count === 4)?.card_id as string;
    const changed = makeCatalogue(demo.cards.map((c) => (c.card_id === four ? { ...c, rarity: 'elite' as const } : c)));
    expect(legality(deck, demo)).toMatchObject({ valid: true, errors: [], ranked: { legal: true, reserved_cards: [] } });
    const now = legality(deck, changed);
    expect(now.valid).toBe(false);
    expect(now.errors.map((e) => [e.code, e.message.split(' ')[0]])).toEqual([['copy_limit', four]]);
  });
});

describe('ranked legality (contract §11.5)', () => {
  it("a card of the Reserve pool leaves a deck legal but not ranked-legal, naming each such card in the code's order; an illegal deck is not ranked-legal", () => {
    const deck = parseDeckCode(legalCode(demo, 'soviet', 'usa'));
    const [a, b] = [deck.cards[0]?.card_id as string, deck.cards.at(-1)?.card_id as string];
    const reserving = (ids: string[]) => makeCatalogue(demo.cards.map((c) => (ids.includes(c.card_id) ? { ...c, reserved: true } : c)));
    expect(legality(deck, reserving([b, a]))).toMatchObject({ valid: true, errors: [], ranked: { legal: false, reserved_cards: [a, b] } });
    const short = { ...deck, cards: deck.cards.slice(1) };
    expect(legality(short, demo).ranked).toEqual({ legal: false, reserved_cards: [] });
    expect(legality(short, reserving([b])).ranked).toEqual({ legal: false, reserved_cards: [b] });
  });
});

// --- OTK: an independent exact computation ------------------------------------------------------------------------
/** C(n, k) by the multiplicative formula (not the factorials the code uses). */
function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}
/** P(at least `required` of `pool` in the first n of 39) as a reduced fraction, summing the hits (not 1 − misses). */
function exact(pool: number, required: number, n: number): [bigint, bigint] {
  let hit = 0n;
  for (let k = required; k <= Math.min(pool, n); k++) hit += binomial(pool, k) * binomial(DECK_SIZE - pool, n - k);
  return [hit, binomial(DECK_SIZE, n)];
}

describe('OTK probabilities', () => {
  it.each([
    [1, 1],
    [4, 1],
    [4, 2],
    [8, 2],
    [12, 3],
    [20, 5],
    [39, 1],
  ])('pool %i, required %i: equal to the exact fraction (9 decimals) for every n from 1 to 39', (pool, required) => {
    const got = drawProbabilities(pool, required);
    expect(got).toHaveLength(39);
    got.forEach((p, i) => {
      const [num, den] = exact(pool, required, i + 1);
      expect(Math.abs(p - Number((num * 10n ** 15n) / den) / 1e15), `n=${i + 1}`).toBeLessThan(1e-9);
    });
  });

  it('monotone in n; 0 below `required` draws; 1 once the pool cannot be avoided', () => {
    for (const [pool, required] of [
      [3, 1],
      [6, 2],
      [10, 4],
    ] as const) {
      const p = drawProbabilities(pool, required);
      for (let n = 1; n < 39; n++) expect(p[n] as number).toBeGreaterThanOrEqual(p[n - 1] as number);
      for (let n = 1; n < required; n++) expect(p[n - 1]).toBe(0);
      // Past 39 − pool + required − 1 cards, fewer than `required` of the pool cannot remain unseen.
      for (let n = DECK_SIZE - pool + required; n <= 39; n++) expect(p[n - 1]).toBe(1);
    }
  });

  it('agrees with a simulation of 40,000 shuffles within 4 standard deviations', () => {
    const [pool, required, n] = [8, 2, 7];
    // mulberry32: a small seeded generator (repeatable runs), good enough for a shuffle.
    let seed = 42;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
    let hits = 0;
    const runs = 40_000;
    for (let r = 0; r < runs; r++) {
      const deck = Array.from({ length: 39 }, (_, i) => i < pool);
      for (let i = deck.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [deck[i], deck[j]] = [deck[j] as boolean, deck[i] as boolean];
      }
      if (deck.slice(0, n).filter(Boolean).length >= required) hits++;
    }
    const p = drawProbabilities(pool, required)[n - 1] as number;
    expect(Math.abs(hits / runs - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / runs));
  });
});
