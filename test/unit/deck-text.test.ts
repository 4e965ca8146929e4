/**
 * The game's text export, read and written (lib/rules/deck-text.ts; contract §11.3): every real code of
 * ../shared whose cards the real catalogue knows round-trips code → text → code in each of the 12 languages,
 * with its %% line and without it; shuffled lines, another case, and every card named in another language
 * give the same code; what cannot be read names its line. And the paste reader (pasted-deck.ts): a code in
 * either form, a kards.com deck-builder link with any locale prefix, or the text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { DeckTextError, foldName, readDeckText, writeDeckText } from '#rules/deck-text.ts';
import { KARDS_LANGUAGES } from '#rules/kards-graphql.ts';
import { deckOfPaste, PastedDeckError } from '#rules/pasted-deck.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { namedRealCatalogue, nameIn } from '../support/named-catalogue.ts';
import { hasRealCatalogue, hasRealCodes, realCodes } from '../support/shared.ts';

const withoutCode = (text: string) =>
  text
    .split('\n')
    .filter((l) => !l.startsWith('%%'))
    .join('\n');

describe.skipIf(!hasRealCodes || !hasRealCatalogue)('every real code whose cards the catalogue knows, in every language', () => {
  const { catalogue } = hasRealCatalogue ? namedRealCatalogue() : { catalogue: demoCatalogue() };
  const all = realCodes()
    .filter((c) => c.format === 'share')
    .map((c) => parseDeckCode(c.code));
  // The catalogue (May 2026) lacks cards of the newer codes: those are written `[id]`, and round-trip too.
  const known = all.filter((deck) => deck.cards.length > 0 && deck.cards.every((c) => catalogue.get(c.card_id)));

  it('there are such codes (the test is not empty), and the others write their unknown cards as [id]', () => {
    expect([all.length, known.length]).toEqual([25, 3]);
    for (const deck of all) {
      const unknown = deck.cards.filter((c) => !catalogue.get(c.card_id)).length;
      expect(writeDeckText(deck, catalogue, 'en').match(/^\dx \(\?K\) \[..\]$/gm)?.length ?? 0).toBe(unknown);
    }
  });

  it('code → text → code, with its %% line and without it, in each of the 12 languages (every real share code)', () => {
    expect(KARDS_LANGUAGES).toHaveLength(12);
    for (const deck of all)
      for (const language of KARDS_LANGUAGES) {
        const text = writeDeckText(deck, catalogue, language);
        const code = encodeDeckCode(deck);
        expect(text.split('\n').at(-2)).toBe(code);
        expect([language, encodeDeckCode(readDeckText(text, catalogue))]).toEqual([language, code]);
        expect([language, encodeDeckCode(readDeckText(withoutCode(text), catalogue))]).toEqual([language, code]);
        // Its known cards named in that language, by name: no [id] but the catalogue's unknown ones.
        for (const line of text.split('\n').filter((l) => /^\dx \(\d/.test(l)))
          expect([
            language,
            line,
            deck.cards.some((c) => line.endsWith(` ${nameIn(catalogue.get(c.card_id)?.name ?? '', language)}`)),
          ]).toEqual([language, line, true]);
      }
  });

  it('lines shuffled, re-cased, and each card named in another language: the same code', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...known),
        fc.constantFrom(...KARDS_LANGUAGES),
        fc.array(fc.constantFrom(...KARDS_LANGUAGES), { minLength: 40, maxLength: 40 }),
        fc.array(fc.constantFrom('upper', 'lower', 'as is'), { minLength: 60, maxLength: 60 }),
        fc.infiniteStream(fc.nat()),
        (deck, language, others, cases, order) => {
          const lines = withoutCode(writeDeckText(deck, catalogue, language)).split('\n');
          // Each card line's name in another language (the same card's), its line in another case.
          const byName = new Map(deck.cards.map((c) => [catalogue.get(c.card_id)?.name as string, c.card_id]));
          const mixed = lines.map((line, i) => {
            const m = /^(\dx \(\d+K\) )(.+)$/.exec(line);
            let out = line;
            if (m) {
              const english = [...byName.keys()].find((n) => nameIn(n, language) === m[2]);
              if (english) out = `${m[1]}${nameIn(english, others[i % 40] as string)}`;
            }
            const how = cases[i % 60];
            return how === 'upper' ? out.toUpperCase() : how === 'lower' ? out.toLowerCase() : out;
          });
          // The name line stays first (it is the first line that is nothing else); the rest in any order.
          const [name, ...rest] = mixed;
          const it = order[Symbol.iterator]();
          const shuffled = rest.map((l) => [it.next().value as number, l] as const).sort((a, b) => a[0] - b[0]);
          const text = [name, ...shuffled.map(([, l]) => l)].join('\n');
          expect(encodeDeckCode(readDeckText(text, catalogue))).toBe(encodeDeckCode(deck));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a kards.com deck-builder link (any locale prefix), the URL form and the %% form read as the same deck', () => {
    for (const deck of known.slice(0, 5)) {
      const code = encodeDeckCode(deck);
      for (const text of [
        code,
        `  ${code}\n`,
        urlCodeOf(deck),
        `https://www.kards.com/decks/deck-builder?hash=${encodeURIComponent(code)}`,
        `https://www.kards.com/de/decks/deck-builder?hash=${encodeURIComponent(code)}`,
        `https://www.kards.com/zh-Hant/decks/deck-builder?hash=${encodeURIComponent(code)}&utm=x`,
        `https://decks.example/c/${urlCodeOf(deck)}?lang=de`,
        // The export pasted into a one-line field (a Discord option): its line breaks become spaces.
        writeDeckText(deck, catalogue, 'de').replaceAll('\n', ' '),
        withoutCode(writeDeckText(deck, catalogue, 'ru')).replaceAll('\n', ' '),
      ])
        expect([text, encodeDeckCode(deckOfPaste(text, catalogue))]).toEqual([text, code]);
    }
  });
});

describe('what cannot be read is said, with its line', () => {
  const catalogue = demoCatalogue();
  const deck = parseDeckCode(
    encodeDeckCode({
      main: 'soviet',
      ally: 'usa',
      cards: catalogue.cards
        .filter((c) => !c.derived && (c.faction === 'soviet' || c.faction === 'usa'))
        .slice(0, 5)
        .map((c) => ({ card_id: c.card_id, count: 2 })),
    }),
  );
  const text = writeDeckText(deck, catalogue, 'en');
  const lines = text.split('\n');
  const at = lines.findIndex((l) => /^\dx /.test(l));

  const failure = (t: string) => {
    try {
      readDeckText(t, catalogue);
    } catch (e) {
      if (e instanceof DeckTextError) return [e.line, e.message];
      throw e;
    }
    return undefined;
  };

  it('a name no card has in any language: 422 material, naming the line', () => {
    const broken = lines.map((l, i) => (i === at ? '2x (1K) NO SUCH CARD ANYWHERE' : l)).join('\n');
    expect(failure(broken)).toEqual([at + 1, expect.stringMatching(/^line \d+: no card is named "NO SUCH CARD ANYWHERE"/)]);
  });

  it('five copies; a %% line that is another deck; a major power that cannot be one; a line that is nothing', () => {
    const first = lines[at] as string;
    expect(failure(lines.map((l, i) => (i === at ? first.replace(/^2x/, '5x') : l)).join('\n'))?.[1]).toMatch(/5 copies/);
    expect(
      failure(lines.map((l, i) => (i === at ? l : l.startsWith('%%') ? encodeDeckCode({ ...deck, ally: 'britain' }) : l)).join('\n'))?.[1],
    ).toMatch(/%% code is another deck/);
    expect(failure(text.replace('Major power: soviet', 'Major power: poland'))?.[1]).toMatch(/cannot be a major power/);
    expect(failure(`${text}\nthis is not a line of the format`)?.[0]).toBe(lines.length + 1);
    expect(failure('')?.[1]).toMatch(/no card lines/);
    expect(failure('x'.repeat(20_000))?.[1]).toMatch(/at most 16000 characters/);
  });

  it('names fold case and accents; nations by id or by name in any language', () => {
    expect(foldName('  Lotta  SVÄRD ')).toBe('lotta svard');
    expect(foldName('ЙОЖ')).toBe(foldName('иож'));
    // Japanese voiced marks are letters of their own, not accents.
    expect(foldName('が')).not.toBe(foldName('か'));
    const german = text.replace('Major power: soviet', 'Major power: Sowjetunion').replace('Ally: usa', 'ally: VEREINIGTE STAATEN');
    expect(encodeDeckCode(readDeckText(german, catalogue))).toBe(encodeDeckCode(deck));
  });

  it('a paste that is nothing, or a link without a code, says so', () => {
    for (const [pasted, message] of [
      ['', /nothing was given/],
      ['https://www.kards.com/', /holds no deck code/],
      ['%%45|zz', /not a deck code: expected 4 groups/],
      ['45-zz', /not a deck code/],
      // Refused by its size before anything reads it (the line breaks a one-line paste lost are not looked for).
      [`2x (1K) A${' '.repeat(20_000)}1x (2K) B`, /at most 16000 characters; this one has 20018/],
    ] as const)
      expect(() => deckOfPaste(pasted, catalogue)).toThrow(
        expect.objectContaining({ name: PastedDeckError.name, message: expect.stringMatching(message) }),
      );
  });
});
