import { describe, expect, it } from 'vitest';
import { encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { checkDeck, countsAs } from '#rules/deck-rules.ts';
import { TINY_CODE, tiny, tinyCards } from '../support/decks.ts';

const check = (cards: { card_id: string; count: number }[], main = 'soviet' as const, ally = 'usa' as const) =>
  checkDeck({ main, ally, cards }, tiny);
const swap = (from: string, to: string, count = 1) => {
  const cards = tinyCards()
    .map((c) => (c.card_id === from ? { ...c, count: c.count - count } : c))
    .filter((c) => c.count > 0);
  const existing = cards.find((c) => c.card_id === to);
  if (existing) existing.count += count;
  else cards.push({ card_id: to, count });
  return cards;
};

describe('deck rules', () => {
  it('pass for a legal 39-card deck', () => {
    expect(checkDeck(parseDeckCode(TINY_CODE), tiny)).toEqual([]);
  });

  it('deck_size: fewer or more than 39 cards', () => {
    const short = tinyCards().slice(1);
    expect(check(short)).toEqual([{ path: 'deck_code', code: 'deck_size', message: expect.stringContaining('35') }]);
    expect(check([...tinyCards(), { card_id: 's7', count: 1 }]).map((d) => d.code)).toEqual(['deck_size']);
  });

  it('unknown_card, derived_card, headquarters_card name the card', () => {
    for (const [id, code] of [
      ['zz', 'unknown_card'],
      ['sd', 'derived_card'],
      ['sh', 'headquarters_card'],
    ] as const) {
      const details = check(swap('s1', id));
      expect(details).toEqual([{ path: 'deck_code', code, message: expect.stringContaining(id) }]);
    }
  });

  it('wrong_faction: a card of neither faction', () => {
    expect(check(swap('s1', 'g1'))).toEqual([{ path: 'deck_code', code: 'wrong_faction', message: expect.stringContaining('g1') }]);
  });

  it('exile cards count as the faction they serve; neutral cards fit any deck', () => {
    const p1 = tiny.get('p1');
    const p2 = tiny.get('p2');
    if (!p1 || !p2) throw new Error('fixture');
    expect(countsAs(p1, 'soviet', 'usa')).toBe('usa');
    expect(countsAs(p2, 'soviet', 'usa')).toBeUndefined();
    expect(countsAs(p2, 'germany', 'poland')).toBe('poland');
    expect(check(swap('s1', 'n1'))).toEqual([]);
    // p1 counts as USA, the ally: 12 + 1 ally copies.
    expect(check(swap('s1', 'p1')).map((d) => d.code)).toEqual(['ally_limit']);
    expect(check(swap('u1', 'p1'))).toEqual([]);
    expect(check(swap('s1', 'p2')).map((d) => d.code)).toEqual(['wrong_faction']);
  });

  it('ally_limit: more than 12 copies counted as the ally', () => {
    expect(check(swap('s1', 'u4'))).toEqual([{ path: 'deck_code', code: 'ally_limit', message: expect.stringContaining('13') }]);
  });

  it('copy_limit by rarity: limited 3, special 2, elite 1 (standard 4)', () => {
    expect(check(swap('s1', 'sL', 1)).map((d) => d.code)).toEqual(['copy_limit']);
    expect(check(swap('s1', 'sS', 2))).toEqual([]);
    expect(check(swap('s1', 'sS', 3))).toEqual([{ path: 'deck_code', code: 'copy_limit', message: expect.stringContaining('special') }]);
    expect(check(swap('s1', 'sE', 1))).toEqual([]);
    expect(check(swap('s1', 'sE', 2)).map((d) => d.code)).toEqual(['copy_limit']);
  });

  it('reports every failure, not just the first', () => {
    const cards = [...swap('s1', 'u4', 2), { card_id: 'zz', count: 1 }, { card_id: 'g1', count: 1 }];
    expect(
      check(cards)
        .map((d) => d.code)
        .sort(),
    ).toEqual(['ally_limit', 'deck_size', 'unknown_card', 'wrong_faction']);
  });

  it('a card path callback places card failures', () => {
    const details = checkDeck({ main: 'soviet', ally: 'usa', cards: swap('s1', 'zz') }, tiny, { pathForCard: (id) => `cards.${id}` });
    expect(details[0]?.path).toBe('cards.zz');
    expect(encodeDeckCode({ main: 'soviet', ally: 'usa', cards: tinyCards() })).toBe(TINY_CODE);
  });
});
