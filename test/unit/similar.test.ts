/** Decks like this one, the rule (lib/rules/similar.ts): the likeness formula, the rarest cards, the closest candidates. */
import { describe, expect, it } from 'vitest';
import type { CardCount, Deck } from '#rules/deck-code.ts';
import { closest, likeness, rarestCards, SIMILAR_MOST } from '#rules/similar.ts';

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

describe('rarestCards', () => {
  it('takes the cards fewest decks play, ties by id, at most n', () => {
    const played: Record<string, number> = { aa: 5, bb: 1, cc: 1, dd: 9 };
    expect(rarestCards(deck('dd1 cc1 bb1 aa1'), (id) => played[id] ?? 0, 3)).toEqual(['bb', 'cc', 'aa']);
    expect(rarestCards(deck('dd1 ee1'), (id) => played[id] ?? 0, 3)).toEqual(['ee', 'dd']);
  });
});

describe('closest', () => {
  const me = deck('aa4 bb4 cc4');
  it('leaves out the deck itself, its exact copies and other main nations; each code once (its most viewed); most alike first, ties by views', () => {
    const found = closest(
      me,
      [
        { id: 'self', views: 9, deck: deck('aa4 bb4 cc4') },
        { id: 'copy', views: 99, deck: deck('cc4 bb4 aa4') },
        { id: 'near', views: 1, deck: deck('aa4 bb4 cc3 dd1') },
        { id: 'near-twin', views: 5, deck: deck('aa4 bb4 cc3 dd1') },
        { id: 'far', views: 50, deck: deck('aa4 ee4 ff4') },
        { id: 'also-far', views: 70, deck: deck('bb4 ee4 ff4') },
        { id: 'abroad', views: 100, deck: deck('aa4 bb4 cc3 dd1', 'germany') },
      ],
      'self',
    );
    expect(found.map((f) => f.candidate.id)).toEqual(['near-twin', 'also-far', 'far']);
    expect(found.map((f) => f.score)).toEqual([11 / 13, 4 / 20, 4 / 20]);
  });
  it(`lists at most ${SIMILAR_MOST}`, () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `d${i}`, views: i, deck: deck(`aa4 bb4 ${String.fromCharCode(65 + i)}z1`) }));
    expect(closest(me, many)).toHaveLength(SIMILAR_MOST);
  });
});
