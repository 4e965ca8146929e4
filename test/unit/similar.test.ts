/**
 * Decks like this one, the rule (lib/rules/similar.ts): the likeness formula, the MinHash signature and its bands
 * (a pair's chance to share one is its likeness's, as the theory says: measured here), the closest candidates.
 */
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import type { CardCount, Deck } from '#rules/deck-code.ts';
import { bandCatchRate, bandKeys, closest, likeness, SIMILAR_BANDS, SIMILAR_MOST, SIMILAR_ROWS, signature } from '#rules/similar.ts';
import { random } from '../../scripts/bench/scale-library.ts';
import { deckableCards } from '../support/decks.ts';

const cards = (spec: string): CardCount[] => spec.split(' ').map((s) => ({ card_id: s.slice(0, 2), count: Number(s.slice(2)) }));
const deck = (spec: string, main: Deck['main'] = 'soviet'): Deck => ({ main, ally: 'usa', cards: cards(spec) });

describe('likeness', () => {
  it('is Σ min / Σ max over the cards of both: 1 for the same, 0 for none shared, symmetric', () => {
    expect(likeness(cards('aa4 bb3'), cards('aa4 bb3'))).toBe(1);
    expect(likeness(cards('aa4 bb3'), cards('cc4 dd3'))).toBe(0);
    // min: aa 2 + bb 0 = 2; max: aa 4 + bb 3 + cc 1 = 8.
    expect(likeness(cards('aa4 bb3'), cards('aa2 cc1'))).toBe(2 / 8);
    expect(likeness(cards('aa2 cc1'), cards('aa4 bb3'))).toBe(2 / 8);
  });
});

describe('the signature and its bands (MinHash with banding)', () => {
  it('bands of 2 rows, 17 of them: a pair at likeness 0.5 shares one with probability 0.99 or more, at 0.8 nearly always', () => {
    expect([SIMILAR_BANDS, SIMILAR_ROWS]).toEqual([17, 2]);
    expect(bandCatchRate(0.5)).toBeGreaterThanOrEqual(0.99);
    expect(bandCatchRate(0.8)).toBeGreaterThan(0.99999);
    // One band fewer would miss: the choice is the least that holds.
    expect(bandCatchRate(0.5, SIMILAR_BANDS - 1)).toBeLessThan(0.99);
  });

  it('the same deck in any card order has the same bands; its main nation is in each; no cards, no bands', () => {
    const a = deck('aa4 bb3 cc1');
    expect(bandKeys(a)).toEqual(bandKeys({ ...a, cards: [...a.cards].reverse() }));
    expect(bandKeys(a)).toHaveLength(SIMILAR_BANDS);
    for (const key of bandKeys(a)) expect(key.startsWith('soviet.')).toBe(true);
    expect(bandKeys(deck('aa4 bb3 cc1', 'germany'))).not.toEqual(bandKeys(a));
    expect(bandKeys({ ...a, cards: [] })).toEqual([]);
  });

  it('two decks agree on a row as often as their likeness (the weighted Jaccard): measured over 600 pairs of 40 cards', () => {
    const pool = deckableCards(demoCatalogue(), 'soviet').map((c) => c.card_id);
    const next = random(20261129);
    const draw = (from: string[]): CardCount[] => {
      const held = new Map<string, number>();
      while ([...held.values()].reduce((n, c) => n + c, 0) < 40) {
        const id = from[Math.floor(next() * from.length)] as string;
        held.set(id, Math.min(4, (held.get(id) ?? 0) + 1));
      }
      return [...held].map(([card_id, count]) => ({ card_id, count }));
    };
    let agreed = 0;
    let expected = 0;
    let caught = 0;
    let due = 0;
    for (let i = 0; i < 600; i++) {
      const a = draw(pool);
      // A variant: some of a's copies kept, some drawn anew (likeness spread from low to near 1).
      const keep = next();
      const b = draw(pool).map((c, k) => (k < a.length * keep ? (a[k] as CardCount) : c));
      const merged = new Map<string, number>();
      for (const c of b) merged.set(c.card_id, Math.max(merged.get(c.card_id) ?? 0, c.count));
      const other = [...merged].map(([card_id, count]) => ({ card_id, count }));
      const s = likeness(a, other);
      const [sa, sb] = [signature(a), signature(other)];
      agreed += sa.filter((h, k) => h === sb[k]).length;
      expected += s * sa.length;
      const shares = bandKeys({ main: 'soviet', cards: a }).some((k) => bandKeys({ main: 'soviet', cards: other }).includes(k));
      if (s >= 0.5) {
        due++;
        if (shares) caught++;
      }
    }
    // Rows agree in proportion to the likeness (within 5% of all the rows compared).
    expect(Math.abs(agreed - expected) / (600 * SIMILAR_BANDS * SIMILAR_ROWS)).toBeLessThan(0.05);
    // Every pair at likeness 0.5 or more among them shares a band (0.99 each: all of some hundred, nearly always).
    expect(due).toBeGreaterThan(100);
    expect(caught / due).toBeGreaterThanOrEqual(0.98);
  });
});

describe('closest', () => {
  const me = deck('aa4 bb4 cc4');
  it('leaves out the deck itself, its exact copies and other main nations; each code once (its lowest id); most alike first, ties by id', () => {
    const found = closest(
      me,
      [
        { id: 'self', deck: deck('aa4 bb4 cc4') },
        { id: 'copy', deck: deck('cc4 bb4 aa4') },
        { id: 'near-twin', deck: deck('aa4 bb4 cc3 dd1') },
        { id: 'near', deck: deck('aa4 bb4 cc3 dd1') },
        { id: 'far', deck: deck('aa4 ee4 ff4') },
        { id: 'also-far', deck: deck('bb4 ee4 ff4') },
        { id: 'abroad', deck: deck('aa4 bb4 cc3 dd1', 'germany') },
      ],
      'self',
    );
    expect(found.map((f) => f.candidate.id)).toEqual(['near', 'also-far', 'far']);
    expect(found.map((f) => f.score)).toEqual([11 / 13, 4 / 20, 4 / 20]);
  });
  it(`lists at most ${SIMILAR_MOST}, or the most asked`, () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `d${i}`, deck: deck(`aa4 bb4 ${String.fromCharCode(65 + i)}z1`) }));
    expect(closest(me, many)).toHaveLength(SIMILAR_MOST);
    expect(closest(me, many, undefined, 15)).toHaveLength(15);
  });
});
