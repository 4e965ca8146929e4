/** The URL form of a deck code (contract §10.2): one canonical form a deck, read back to the same deck. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeckCodeError, encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { codeOfSegment, deckOfSegment, URL_CODE, urlCodeOf } from '#rules/url-code.ts';
import { realCodes } from '../support/shared.ts';

describe('the URL form of a deck code', () => {
  it('is the canonical code with %% dropped and | ; written -: 45---2H-2B2C…', () => {
    const deck = parseDeckCode('%%45|;;2H;2C2B');
    expect(urlCodeOf(deck)).toBe('45---2H-2B2C');
    expect(codeOfSegment('45---2H-2B2C')).toEqual({ code: '%%45|;;2H;2B2C', origin: -2 });
    expect(URL_CODE.test(urlCodeOf(deck))).toBe(true);
  });

  it('any code, in either form and any group order: the same deck and one canonical form, that reads back to itself', () => {
    const id = fc.tuple(
      fc.constantFrom(...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'),
      fc.constantFrom(...'0123456789abcdef'),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(
          id.map(([a, b]) => a + b),
          { maxLength: 30 },
        ),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 30, maxLength: 30 }),
        (ids, counts) => {
          const deck = {
            main: 'soviet' as const,
            ally: 'usa' as const,
            cards: ids.map((card_id, i) => ({ card_id, count: counts[i] as number })),
          };
          const canonical = urlCodeOf(deck);
          // Another spelling: every group's ids reversed.
          const groups = encodeDeckCode(deck).slice(5).split(';');
          const reversed = `%%45|${groups.map((g) => (g.match(/../g) ?? []).reverse().join('')).join(';')}`;
          for (const spelling of [canonical, encodeDeckCode(deck), reversed, reversed.slice(2).replace('|', '-').replaceAll(';', '-')]) {
            const read = deckOfSegment(spelling);
            expect(read.canonical).toBe(canonical);
            expect(read.deck).toEqual(parseDeckCode(encodeDeckCode(deck)));
          }
        },
      ),
    );
  });

  it('every real code of ../shared reads in its URL form as in its own', () => {
    for (const real of realCodes().filter((c) => c.format === 'share'))
      expect(deckOfSegment(urlCodeOf(parseDeckCode(real.code))).deck, real.key).toEqual(parseDeckCode(real.code));
  });

  it('every real code of ../shared reads from a kards.com deck-builder link (any locale, the code in either form) as in its own (issue 56)', () => {
    for (const real of realCodes().filter((c) => c.format === 'share')) {
      const deck = parseDeckCode(real.code);
      for (const code of [real.code, urlCodeOf(deck)])
        for (const locale of ['', 'de/', 'zh-Hant/'])
          expect(
            deckOfSegment(`https://www.kards.com/${locale}decks/deck-builder?hash=${encodeURIComponent(code)}`).deck,
            real.key,
          ).toEqual(deck);
    }
    // A link with no code in it fails as a deck code does, saying where codes are.
    expect(() => deckOfSegment('https://www.kards.com/')).toThrow(/holds no deck code/);
    expect(() => deckOfSegment('https://www.kards.com/decks/deck-builder?hash=nope')).toThrow(DeckCodeError);
  });

  it('white space around a URL-form code is trimmed as around a %% code (U+FEFF and U+3000 among it)', () => {
    const canonical = urlCodeOf(parseDeckCode('%%45|;;2H;2B2C2D2E2F2G38393a'));
    for (const pad of [' ', '\uFEFF', '\u3000', '\t\u00A0'])
      for (const segment of [`${pad}${canonical}`, `${canonical}${pad}`, `${pad}%%45|;;2H;2B2C2D2E2F2G38393a${pad}`])
        expect(deckOfSegment(segment).canonical, JSON.stringify(segment)).toBe(canonical);
  });

  it('what is neither form fails as a deck code does, with its offset in the segment as sent', () => {
    for (const bad of ['', '45-', '45-----', 'hello', '%%45|', '45-zz-', '99---2H-2B'])
      expect(() => deckOfSegment(bad), bad).toThrow(DeckCodeError);
    const at = (segment: string) => {
      try {
        deckOfSegment(segment);
      } catch (e) {
        return [(e as DeckCodeError).offset, (e as DeckCodeError).message];
      }
    };
    // Each offset names the character that is wrong, in either form.
    for (const [segment, bad] of [
      ['45---2H-2B!C', '!'],
      ['%%45|;;2H;2B!C', '!'],
      ['65---2H', '6'],
      ['44---2H', '4'],
      ['45---2H-2H', '2'],
      ['45---2H-2B2C-', '-'],
      ['\uFEFF\u300045---2H-2B!C', '!'],
      ['\u3000%%45|;;2H;2B!C', '!'],
    ] as const) {
      const [offset, message] = at(segment) ?? [];
      expect(segment[offset as number], `${segment}: ${message}`).toBe(bad);
      expect(message).toContain(`at offset ${offset}`);
    }
  });
});
