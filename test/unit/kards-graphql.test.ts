/** The official catalogue's answer made into cards (lib/rules/kards-graphql.ts): titles by language, what it refuses. */
import { describe, expect, it } from 'vitest';
import { catalogueOf, checkPage, KARDS_LANGUAGES, untitled, withTitlesOf } from '#rules/kards-graphql.ts';

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
  it("names each card in the game's languages by their locales; zh is Simplified, zh-Hant Traditional; a language no title has is reported", () => {
    const fetched = catalogueOf([
      node('2B', { 'en-EN': 'RIFLES', 'zh-Hant': '步槍', 'zh-Hans': '步枪', 'de-DE': 'SCHÜTZEN', 'ru-RU': 'СТРЕЛКИ' }),
      node('2C', { 'en-EN': 'GUARDS', 'zh-Hant': '衛隊' }),
    ]);
    expect(fetched.cards[0]?.names).toEqual({ en: 'RIFLES', de: 'SCHÜTZEN', ru: 'СТРЕЛКИ', zh: '步枪', 'zh-Hant': '步槍' });
    expect(fetched.cards[1]?.names).toEqual({ en: 'GUARDS', 'zh-Hant': '衛隊' });
    expect(fetched.languages).toEqual(['en', 'de', 'ru', 'zh', 'zh-Hant']);
    expect(fetched.missing).toEqual(KARDS_LANGUAGES.filter((l) => !['en', 'de', 'ru', 'zh', 'zh-Hant'].includes(l)));
    // A locale of a Traditional region stands for zh-Hant, of a Simplified one for zh: never the other.
    expect(catalogueOf([node('2B', { 'en-EN': 'RIFLES', 'zh-TW': '步槍' })]).cards[0]?.names).toEqual({ en: 'RIFLES', 'zh-Hant': '步槍' });
    expect(catalogueOf([node('2B', { 'en-EN': 'RIFLES', 'zh-CN': '步枪' })]).cards[0]?.names).toEqual({ en: 'RIFLES', zh: '步枪' });
    expect(catalogueOf([node('2B', { 'en-EN': 'RIFLES', 'de-DE': 'SCHÜTZEN' })], ['en', 'ru']).cards[0]?.names).toEqual({ en: 'RIFLES' });
  });

  it("a later pass's titles join the first pass's cards by import id, else id; a language no title has is what a pass asks for", () => {
    const first = [
      node('2B', { 'en-EN': 'RIFLES' }),
      { ...node('', { 'en-EN': 'TOKEN' }), cardId: 'token_x', json: { ...node('', { 'en-EN': 'TOKEN' }).json, id: 'token_x' } },
    ];
    expect(untitled(first, ['en', 'ja', 'zh-Hant'])).toEqual(['ja', 'zh-Hant']);
    const ja = [
      node('2B', { 'en-EN': 'RIFLES', 'ja-JP': 'ライフル' }),
      { ...first[1], json: { ...first[1]?.json, title: { 'ja-JP': 'トークン' } } },
    ];
    const joined = withTitlesOf(first, ja, 'ja');
    expect(untitled(joined, ['en', 'ja', 'zh-Hant'])).toEqual(['zh-Hant']);
    expect(catalogueOf(joined, ['en', 'ja']).cards.map((c) => c.names)).toEqual([
      { en: 'RIFLES', ja: 'ライフル' },
      { en: 'TOKEN', ja: 'トークン' },
    ]);
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
