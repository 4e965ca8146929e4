/** The official catalogue's answer made into cards (lib/rules/kards-graphql.ts): titles by language, what it refuses. */
import { describe, expect, it } from 'vitest';
import { catalogueOf, checkPage, KARDS_LANGUAGES } from '#rules/kards-graphql.ts';

const node = (importId: string, title: Record<string, string>, json: Record<string, unknown> = {}) => ({
  importId,
  cardId: `card_${importId}`,
  json: {
    id: `card_${importId}`,
    import_id: importId,
    title,
    faction: 'Soviet',
    type: 'infantry',
    rarity: 'Standard',
    set: 'Base',
    kredits: 2,
    ...json,
  },
});

describe('catalogueOf', () => {
  it("names each card in the game's languages by their locales; zh is Simplified, never zh-Hant; a language no title has is reported", () => {
    const fetched = catalogueOf([
      node('2B', { 'en-EN': 'RIFLES', 'zh-Hant': '步槍', 'zh-Hans': '步枪', 'de-DE': 'SCHÜTZEN', 'ru-RU': 'СТРЕЛКИ' }),
      node('2C', { 'en-EN': 'GUARDS', 'zh-Hant': '衛隊' }),
    ]);
    expect(fetched.cards[0]?.names).toEqual({ en: 'RIFLES', de: 'SCHÜTZEN', ru: 'СТРЕЛКИ', zh: '步枪' });
    expect(fetched.cards[1]?.names).toEqual({ en: 'GUARDS' });
    expect(fetched.languages).toEqual(['en', 'de', 'ru', 'zh']);
    expect(fetched.missing).toEqual(KARDS_LANGUAGES.filter((l) => !['en', 'de', 'ru', 'zh'].includes(l)));
    expect(catalogueOf([node('2B', { 'en-EN': 'RIFLES', 'de-DE': 'SCHÜTZEN' })], ['en', 'ru']).cards[0]?.names).toEqual({ en: 'RIFLES' });
  });

  it('refuses, naming the card: no English title, an unknown nation, a repeated import id, nothing at all', () => {
    expect(() => catalogueOf([node('2B', { 'de-DE': 'SCHÜTZEN' })])).toThrow(/card \[0\] \(import id 2B\): no English title/);
    expect(() => catalogueOf([node('2B', { 'en-EN': 'X' }, { faction: 'Atlantis' })])).toThrow(/card \[0\].*X: nation: unknown nation/);
    expect(() => catalogueOf([node('2B', { 'en-EN': 'X' }), node('2B', { 'en-EN': 'Y' })])).toThrow(
      /card \[1\].*import id 2B repeats card \[0\]/,
    );
    expect(() => catalogueOf([])).toThrow(/no cards/);
  });

  it('a page is checked against its count: short, long, or "more" past the count (a fetch would walk on for ever)', () => {
    const nodes = (n: number) => Array.from({ length: n }, () => ({}));
    expect(() => checkPage({ count: 45, hasNextPage: true, nodes: nodes(20) }, 20)).not.toThrow();
    expect(() => checkPage({ count: 45, hasNextPage: false, nodes: nodes(5) }, 40)).not.toThrow();
    expect(() => checkPage({ count: 45, hasNextPage: true, nodes: nodes(19) }, 0)).toThrow(/holds 19 cards where 20 were due/);
    expect(() => checkPage({ count: 45, hasNextPage: false, nodes: nodes(6) }, 40)).toThrow(/holds 6 cards where 5 were due/);
    expect(() => checkPage({ count: 45, hasNextPage: true, nodes: nodes(20) }, 40)).toThrow(/more past the 45 cards/);
  });
});
