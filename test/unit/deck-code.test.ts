import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE62, base62Value } from '#rules/base62.ts';
import { type Deck, DeckCodeError, encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { FACTIONS, type FactionId, MAIN_FACTION_IDS } from '#rules/factions.ts';

const errorOf = (code: unknown): DeckCodeError => {
  try {
    parseDeckCode(code);
  } catch (e) {
    if (e instanceof DeckCodeError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(code)} to be rejected`);
};

describe('parseDeckCode', () => {
  it('reads factions and groups, each group giving its copy count', () => {
    const deck = parseDeckCode('%%45|o0o5;bQ;7X;84');
    expect(deck.main).toBe('soviet');
    expect(deck.ally).toBe('usa');
    expect(deck.cards).toEqual([
      { card_id: '7X', count: 3 },
      { card_id: '84', count: 4 },
      { card_id: 'bQ', count: 2 },
      { card_id: 'o0', count: 1 },
      { card_id: 'o5', count: 1 },
    ]);
  });

  it('reads the client storage form as the deck before its "~" (the tail and the HQ segment dropped)', () => {
    expect(parseDeckCode('%%45|o0o5;bQ;7X;84~o0o5;bQ;7X;84|6l1g')).toEqual(parseDeckCode('%%45|o0o5;bQ;7X;84'));
    expect(parseDeckCode(' %%45|o0;;;~;;;|0N1b ')).toEqual(parseDeckCode('%%45|o0;;;'));
  });

  it('accepts empty groups and surrounding white space', () => {
    expect(parseDeckCode('  %%59|;;;\n')).toEqual({ main: 'usa', ally: 'finland', cards: [] });
  });

  it('knows every faction digit', () => {
    for (const f of FACTIONS) {
      const main = f.main ? f.digit : '1';
      const ally = f.main ? (f.digit === '1' ? '2' : '1') : f.digit;
      const deck = parseDeckCode(`%%${main}${ally}|;;;`);
      expect(f.main ? deck.main : deck.ally).toBe(f.id);
    }
  });

  it.each([
    ['', 0, '"%%"'],
    ['%45|;;;', 0, '"%%"'],
    ['%%65|;;;', 2, 'cannot be a main faction'],
    ['%%05|;;;', 2, 'main faction digit'],
    ['%%4b|;;;', 3, 'ally faction digit'],
    ['%%44|;;;', 3, 'differ'],
    ['%%45;;;;', 4, '"|"'],
    ['%%45|;;', 7, 'expected 4 groups'],
    ['%%45|;;;;', 8, 'exactly 4 groups'],
    ['%%45|a;;;', 5, 'cut short'],
    ['%%45|ab;c;;', 8, 'cut short'],
    ['%%45|a-;;;', 5, 'cut short'],
    ['%%45|ab;ab;;', 8, 'appears again (first at offset 5)'],
    ['%%45|;;~;;;|6l1g', 7, 'before "~"'],
    ['%%45|;;;~;;|6l1g', 11, 'after "~"'],
    ['%%45|;;;~;;;;|6l1g', 12, 'exactly 4 groups'],
    ['%%45|;;;~;;;a|6l1g', 12, 'after "~"'],
    ['%%45|;;;~;;;', 12, 'HQ segment'],
    ['%%45|;;;~;;;|6l1', 16, 'HQ segment'],
    ['%%45|;;;~;;;|6l1g|', 17, 'after the HQ segment'],
    ['%%45|;;;~;;;|6l-g', 15, 'HQ segment'],
    ['  %%45|a', 7, 'cut short'],
  ])('rejects %j at offset %i', (code, offset, text) => {
    const e = errorOf(code);
    expect(e.code).toBe('invalid_deck_code');
    expect(e.offset).toBe(offset);
    expect(e.message).toContain(text);
    expect(e.message).toContain(`offset ${offset}`);
  });

  it('rejects what is not a string', () => {
    for (const x of [undefined, null, 42, {}, ['%%45|;;;']]) expect(errorOf(x).offset).toBe(0);
  });
});

describe('encodeDeckCode', () => {
  it('sorts ids inside each group by base-62 value (0-9a-zA-Z)', () => {
    expect(encodeDeckCode(parseDeckCode('%%45|Zaa0A9;;;'))).toBe('%%45|a0A9Za;;;');
  });

  it('refuses counts a code cannot hold', () => {
    expect(() => encodeDeckCode({ main: 'soviet', ally: 'usa', cards: [{ card_id: 'a0', count: 5 }] })).toThrow(RangeError);
  });
});

// --- properties -------------------------------------------------------------------------------

const cardId = fc.tuple(fc.constantFrom(...BASE62), fc.constantFrom(...BASE62)).map(([a, b]) => a + b);
const factionPair = fc
  .tuple(fc.constantFrom(...MAIN_FACTION_IDS), fc.constantFrom(...FACTIONS.map((f) => f.id)))
  .filter(([main, ally]) => main !== ally);
const deckArb: fc.Arbitrary<Deck> = fc
  .tuple(factionPair, fc.uniqueArray(fc.tuple(cardId, fc.integer({ min: 1, max: 4 })), { selector: ([id]) => id, maxLength: 40 }))
  .map(([[main, ally], cards]) => ({
    main: main as FactionId,
    ally: ally as FactionId,
    cards: cards.map(([card_id, count]) => ({ card_id, count })),
  }));

/** A non-canonical spelling of a deck: groups shuffled by a seed. */
const spell = (deck: Deck, seed: number): string => {
  const groups: string[][] = [[], [], [], []];
  for (const c of deck.cards) (groups[c.count - 1] as string[]).push(c.card_id);
  for (const g of groups) g.sort((a, b) => ((base62Value(a) * seed) % 97) - ((base62Value(b) * seed) % 97));
  const digit = (id: string) => FACTIONS.find((f) => f.id === id)?.digit;
  return `%%${digit(deck.main)}${digit(deck.ally)}|${groups.map((g) => g.join('')).join(';')}`;
};
const asSet = (d: Deck) => new Map(d.cards.map((c) => [c.card_id, c.count]));

describe('deck code properties', () => {
  it('encode(parse(code)) is canonical and stable, and parse returns the same cards', () => {
    fc.assert(
      fc.property(deckArb, fc.integer({ min: 1, max: 96 }), (deck, seed) => {
        const code = spell(deck, seed);
        const parsed = parseDeckCode(code);
        expect(asSet(parsed)).toEqual(asSet(deck));
        const canonical = encodeDeckCode(parsed);
        expect(encodeDeckCode(parseDeckCode(canonical))).toBe(canonical);
        expect(canonical).toBe(encodeDeckCode(deck));
        expect(asSet(parseDeckCode(canonical))).toEqual(asSet(deck));
      }),
      { numRuns: 500 },
    );
  });

  it('for any string the parser returns a deck or a DeckCodeError, nothing else', () => {
    const near = fc.string({ unit: fc.constantFrom('%', '|', ';', '~', ' ', '1', '4', '5', 'a', 'Z', '0', '-', 'é') });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'grapheme' }),
          near,
          near.map((s) => `%%45|${s}`),
        ),
        (s) => {
          try {
            const deck = parseDeckCode(s);
            expect(deck.cards.every((c) => c.count >= 1 && c.count <= 4)).toBe(true);
          } catch (e) {
            expect(e).toBeInstanceOf(DeckCodeError);
            expect((e as DeckCodeError).offset).toBeGreaterThanOrEqual(0);
            expect((e as DeckCodeError).offset).toBeLessThanOrEqual(s.length);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
