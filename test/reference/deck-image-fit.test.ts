/**
 * Every text of the deck image fits its box, by the shipped font's own measures (the layout places each
 * text and says its measured width and its box: lib/share/image.ts): every real KARDS deck code of
 * ../shared with the real catalogue, named in each of the game's 12 languages as the GraphQL stand-in names
 * them, with the faces cut to those names as synth cuts them (a task root of their own, as in Lambda) —
 * every card name drawn with a glyph of the faces its language draws with, none as a box; long all-capitals
 * names (the real catalogue's are), and hostile deck strings. A name that would run into the next column
 * is shortened with an ellipsis — and only then.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalogue, loadCatalogueFile } from '#catalogue/load.ts';
import { SHARE_ROUTES } from '#routes/share.ts';

const { readDeckImage } = SHARE_ROUTES;

import { cardName } from '#rules/card.ts';
import { makeCatalogue } from '#rules/catalogue.ts';
import { type Deck, encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { checkDeck } from '#rules/deck-rules.ts';
import { deckName } from '#rules/factions.ts';
import { IMAGE_SIZES } from '#rules/image-sizes.ts';
import { KARDS_LANGUAGES, KARDS_LOCALES } from '#rules/kards-graphql.ts';
import { labelsFor, labelTexts } from '#rules/labels.ts';
import { type DrawnBox, type DrawnText, EMBED_LEAST_TEXT, embedImageLayout, TEXT_BOX } from '#share/embed-image.ts';
import { fontMetrics } from '#share/font-metrics.ts';
import { LATIN_FACE } from '#share/fonts.ts';
import { deckImageLayout, LIST, type PlacedText, TEXT_SIZE } from '#share/image.ts';
import { drawable, measurerFor, renderPng } from '#share/png.ts';
import { codeSheet, deckSheet, type SheetCard } from '#share/sheet.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { cutFonts } from '../../infra/cut-fonts.ts';
import { legalCode, storedDeck } from '../support/decks.ts';
import { standInTitles } from '../support/kards-standin.ts';
import { hasRealCatalogue, hasRealCodes, PROJECT_ROOT, REAL_CATALOGUE_FILE, realCodes } from '../support/shared.ts';

/** The texts that end past their box (half a pixel of rounding allowed). */
const outside = (texts: PlacedText[]) =>
  texts.filter((t) => t.width > t.box + 0.5).map((t) => `${t.text}: ${t.width.toFixed(1)} > ${t.box.toFixed(1)}`);

/** A text of the embed image's box: from its left to its end, from above its baseline to below it (TEXT_BOX, in ems). */
const boxOf = (t: DrawnText): DrawnBox => ({
  x: t.x,
  y: t.y - TEXT_BOX.above * t.size,
  width: t.width,
  height: (TEXT_BOX.above + TEXT_BOX.below) * t.size,
});
const apart = (a: DrawnBox, b: DrawnBox) =>
  a.x + a.width <= b.x + 0.01 || b.x + b.width <= a.x + 0.01 || a.y + a.height <= b.y + 0.01 || b.y + b.height <= a.y + 0.01;
/** The embed image's boxes (its texts' and its bars') outside the picture or over another. */
function boxFailures(layout: { texts: DrawnText[]; boxes: DrawnBox[] }, at: string): string[] {
  const { width, height } = IMAGE_SIZES.embed;
  const failures: string[] = [];
  const boxes = [...layout.texts.map(boxOf), ...layout.boxes];
  for (const [i, a] of boxes.entries()) {
    if (a.x < 0 || a.y < 0 || a.x + a.width > width || a.y + a.height > height)
      failures.push(`${at}: ${JSON.stringify(a)} outside the picture`);
    for (const b of boxes.slice(i + 1)) if (!apart(a, b)) failures.push(`${at}: ${JSON.stringify(a)} over ${JSON.stringify(b)}`);
  }
  return failures;
}
/** A card's name as the embed image draws it: its pieces joined as they break. */
const drawnName = (texts: DrawnText[], cardId: string) =>
  texts
    .filter((t) => t.card === cardId)
    .map((t, i) => (i ? t.joiner : '') + t.text)
    .join('');

describe.skipIf(!hasRealCodes || !hasRealCatalogue)('the deck image, every real code with the real catalogue', () => {
  const catalogue = hasRealCatalogue ? loadCatalogueFile(REAL_CATALOGUE_FILE) : demoCatalogue();
  const share = realCodes().filter((c) => c.format === 'share');
  /** Every real code with cards that reads (the share codes and the game's client-storage ones). */
  const readable = realCodes().filter((c) => {
    try {
      return parseDeckCode(c.code).cards.length > 0;
    } catch {
      return false;
    }
  });
  // The real cards named as the GraphQL stand-in names them: a title of its own in each of the game's languages.
  const named = makeCatalogue(
    catalogue.cards.map((c) => {
      const titles = standInTitles(c.name);
      return { ...c, names: Object.fromEntries(KARDS_LANGUAGES.map((l) => [l, titles[KARDS_LOCALES[l] as string] as string])) };
    }),
  );
  // The image functions' task root as synth makes it for that catalogue: the renderer, Inter whole, each
  // CJK and Hangul face cut to its own language's names (scripts/subset-fonts.ts).
  const taskRoot = mkdtempSync(join(tmpdir(), 'deck-image-fit-'));
  beforeAll(() => {
    const file = join(taskRoot, 'named.json');
    writeFileSync(file, JSON.stringify(named.cards));
    cutFonts(file, taskRoot, readDeckImage.subsetFonts);
    for (const f of readDeckImage.files) copyFileSync(join(PROJECT_ROOT, f), join(taskRoot, basename(f)));
    process.env.LAMBDA_TASK_ROOT = taskRoot;
  }, 120_000);
  afterAll(() => {
    delete process.env.LAMBDA_TASK_ROOT;
    rmSync(taskRoot, { recursive: true, force: true });
  });
  /** A real code as a stored public deck (its derived fields as a create makes them). */
  const realDeck = (code: string, fields: Partial<StoredDeck> = {}, language = 'en') => {
    const deck = parseDeckCode(code);
    const stored = storedDeck({
      deck_code: encodeDeckCode(deck),
      main_faction: deck.main,
      ally_faction: deck.ally,
      name: deckName(deck.main, deck.ally),
      ...fields,
    });
    return { deck, stored, layout: deckImageLayout(deckSheet(stored, named, language), measurerFor(language)) };
  };

  it.each(share.map((c) => [c.key, c] as const))('%s: every text inside its box', (_key, real) => {
    const {
      deck,
      layout: { texts },
    } = realDeck(real.code);
    expect(texts.length).toBeGreaterThan(deck.cards.length);
    expect(outside(texts)).toEqual([]);
    // Shortened only what would not fit: every card's name is whole or ends in an ellipsis.
    for (const { card_id } of deck.cards) {
      const name = catalogue.get(card_id)?.name ?? card_id;
      expect(
        texts.some((t) => t.text === name || (t.text.endsWith('…') && name.startsWith(t.text.slice(0, -1)))),
        name,
      ).toBe(true);
    }
  });

  it.each(KARDS_LANGUAGES.filter((l) => l !== 'en'))(
    'in %s: every real code, every text inside its box and every card name drawn with a glyph',
    (language) => {
      for (const real of share) {
        const { deck, layout } = realDeck(real.code, {}, language);
        expect(outside(layout.texts), real.key).toEqual([]);
        for (const { card_id } of deck.cards) {
          const card = named.get(card_id);
          if (card) expect(drawable(cardName(card, language), language), `${real.key} ${card_id}`).toBe(true);
        }
      }
      // Its labels too: the cut face holds them (scripts/subset-fonts.ts).
      for (const label of labelTexts(language)) expect(drawable(label, language), label).toBe(true);
    },
  );

  it.each(KARDS_LANGUAGES)(
    'a bare code (contract §10.2) in %s: every real code, every text inside its box; an illegal one says why',
    (language) => {
      for (const real of share) {
        const deck = parseDeckCode(real.code);
        const sheet = codeSheet(deck, named, language);
        expect(sheet.author, real.key).toBeNull();
        const { texts } = deckImageLayout(sheet, measurerFor(language));
        expect(outside(texts), real.key).toEqual([]);
        // Legal or not as the catalogue judges it; an illegal code's first issue is drawn (whole or shortened).
        const issues = checkDeck(deck, named);
        expect(sheet.issues.length, real.key).toBe(issues.length);
        const said = labelsFor(language).notLegalLine('', 0).trimEnd();
        if (issues.length)
          expect(
            texts.some((t) => t.text.startsWith(said)),
            real.key,
          ).toBe(true);
      }
    },
  );

  it('Japan / United States in Chinese, Russian, Japanese and Traditional Chinese names, drawn (the README shows them: UPDATE_SCREENSHOT=1)', async () => {
    const real = share.find((c) => c.key === 'jp-usa');
    for (const language of ['zh', 'ru', 'ja', 'zh-Hant']) {
      const { layout } = realDeck(real?.code as string, { author_name: 'A real deck', share_slug: 'realjpusa000' }, language);
      const png = await renderPng(layout.svg);
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      if (process.env.UPDATE_SCREENSHOT) writeFileSync(join(import.meta.dirname, `../../docs/deck-image-jp-usa-${language}.png`), png);
    }
  });

  it('three real decks drawn (the README shows them: UPDATE_SCREENSHOT=1 writes docs/deck-image-<key>.png, and -400.png as Discord shows it)', async () => {
    for (const key of ['jp-usa', 'bri-fin', 'bri-usa-2']) {
      const real = share.find((c) => c.key === key);
      const { layout } = realDeck(
        real?.code as string,
        {
          author_name: 'A real deck',
          share_slug: `real${key.replaceAll('-', '')}`.padEnd(12, '0').slice(0, 12),
          tags: ['tempo', 'ranked'],
          guide: { system: 'Tempo' },
        } as Partial<StoredDeck>,
      );
      const png = await renderPng(layout.svg);
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      if (process.env.UPDATE_SCREENSHOT) {
        writeFileSync(join(import.meta.dirname, `../../docs/deck-image-${key}.png`), png);
        // And as Discord's embed shows it, 400 px wide (scaled down by the same renderer), to look at.
        const small = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="210"><image width="400" height="210" xlink:href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
        writeFileSync(join(import.meta.dirname, `../../docs/deck-image-${key}-400.png`), await renderPng(small));
      }
    }
  });

  it("names uncut where the image has room (issue 46): when the columns need no more than the list's width, no card name is shortened; a continued cost keeps its heading", () => {
    const rows: string[] = [];
    for (const language of ['en', 'de', 'ru', 'ja']) {
      let cut = 0;
      let roomy = 0;
      for (const real of share) {
        const { deck, layout } = realDeck(real.code, {}, language);
        const names = new Set(
          deck.cards.map((c) => (named.get(c.card_id) ? cardName(named.get(c.card_id) as never, language) : c.card_id)),
        );
        const shortened = layout.texts.filter((t) => t.text.endsWith('…') && [...names].some((n) => n.startsWith(t.text.slice(0, -1))));
        cut += shortened.length;
        if (layout.needs.reduce((a, b) => a + b, 0) <= LIST.right - LIST.left) {
          roomy++;
          expect(
            shortened.map((t) => t.text),
            `${real.key} ${language}`,
          ).toEqual([]);
        }
        // A column that starts in the middle of a cost's cards starts with its heading, marked continued.
        const continued = labelsFor(language).continued('').trim();
        const headings = layout.texts.filter((t) => t.text.endsWith(continued));
        for (const h of headings) expect(h.x, `${real.key} ${h.text}`).toBeGreaterThan(48);
      }
      rows.push(`${language}: ${roomy} of ${share.length} decks fit their columns whole; ${cut} names shortened in all`);
    }
    console.log(`real decks' images:\n${rows.join('\n')}`);
  });

  it("legible at Discord's 400 px (issue 46): every text drawn at 20 px or more (cap height ≥ 14 px at 1200, ≥ 4.7 at 400), every card name at 25 (cap height ≥ 18 px, 6 at 400)", () => {
    // The cap height of the face Latin text is drawn in, read from its file (OS/2 sCapHeight: Inter's is 0.727 em).
    const inter = fontMetrics(readFileSync(join(PROJECT_ROOT, LATIN_FACE.files[0] as string)));
    expect(inter.capHeight).toBeGreaterThan(0.7);
    const cap = (size: number) => size * (inter.capHeight as number);
    for (const real of share)
      for (const language of ['en', 'ja']) {
        const { layout } = realDeck(real.code, { tags: ['tempo'], author_name: 'A real deck' } as Partial<StoredDeck>, language);
        const sizes = [...layout.svg.matchAll(/font-size="(\d+)"/g)].map((m) => Number(m[1]));
        expect(cap(Math.min(...sizes)), `${real.key} ${language}`).toBeGreaterThanOrEqual(14);
        // Each card's row: its count and name at the name's size.
        const rows = [...layout.svg.matchAll(/<text [^>]*font-size="(\d+)"[^>]*><tspan font-weight="700">\d×<\/tspan>/g)].map((m) =>
          Number(m[1]),
        );
        expect(rows.length > 0, real.key).toBe(parseDeckCode(real.code).cards.length > 0);
        if (rows.length > 0) expect(cap(Math.min(...rows)), `${real.key} ${language}`).toBeGreaterThanOrEqual(18);
      }
    expect(cap(TEXT_SIZE.small)).toBeGreaterThanOrEqual(14);
  });

  describe("at an embed's size (contract §12.5, issue 56): what Discord shows 400 px wide", () => {
    const { width, height, shown } = IMAGE_SIZES.embed;
    /** Every real code, as a saved deck (author, system, tags) and as a bare code, in `language`: each check's failures. */
    type Layout = ReturnType<typeof embedImageLayout>;
    /** What is wrong with an embed layout of `deck` in `language`: a text too small, a card left out, a name not drawn whole, a box over another. */
    const failuresOf = (layout: Layout, deck: Deck, language: string, at: string, title?: string): string[] => {
      const failures: string[] = [];
      // The title whole: its lines (one or two, the first at the list's left) joined are the deck's name.
      if (title !== undefined) {
        const lines = layout.texts.filter((t) => t.x === 24 || t.x === 36).slice(0, layout.titleLines);
        const drawn = lines.map((t) => t.text);
        if (layout.titleCut || ![drawn.join(' '), drawn.join('')].includes(title.replace(/ +/g, ' ').trim()))
          failures.push(`${at}: title drawn "${drawn.join('|')}", named "${title}"`);
      }
      // No text under 12 px where the image is shown 400 px wide: every size the SVG draws, scaled as the embed scales it.
      const sizes = [...layout.svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
      if (Math.min(...sizes) * (shown / width) < 12) failures.push(`${at}: a text at ${Math.min(...sizes)} px`);
      if (layout.hidden) failures.push(`${at}: ${layout.hidden} cards left out`);
      failures.push(...outside(layout.texts).map((o) => `${at}: ${o}`));
      // Every name drawn whole: its pieces, joined as they break, are the catalogue's name; none shortened.
      for (const { card_id } of deck.cards) {
        const card = named.get(card_id);
        const name = (card ? cardName(card, language) : card_id).trim().replace(/ +/g, ' ');
        const drawn = drawnName(layout.texts, card_id);
        if (drawn !== name) failures.push(`${at}: ${card_id} drawn "${drawn}", named "${name}"`);
      }
      // Nothing overlapping, everything inside the picture.
      failures.push(...boxFailures(layout, at));
      return failures;
    };
    /** Every real code as a saved deck (author, system, tags) and as a bare code, in `language`: the share codes and the game's client-storage ones. */
    const layouts = (language: string) =>
      readable.flatMap((real) => {
        const deck = parseDeckCode(real.code);
        const saved = realDeck(
          real.code,
          { author_name: 'A real deck', tags: ['tempo', 'ranked'], guide: { system: 'Tempo' } } as Partial<StoredDeck>,
          language,
        ).stored;
        const [savedSheet, codeSheetOf] = [deckSheet(saved, named, language), codeSheet(deck, named, language)];
        return [
          {
            at: `${real.key} saved ${language}`,
            deck,
            title: savedSheet.name,
            layout: embedImageLayout(savedSheet, measurerFor(language)),
          },
          {
            at: `${real.key} code ${language}`,
            deck,
            title: codeSheetOf.name,
            layout: embedImageLayout(codeSheetOf, measurerFor(language)),
          },
        ];
      });

    it.each(KARDS_LANGUAGES)(
      'in %s: every real code, saved and bare: no text under 12 px at 400 px, no name cut or left out, no box over another',
      (language) => {
        const all = layouts(language);
        expect(all.length).toBe(2 * readable.length);
        expect(all.flatMap(({ layout, deck, at, title }) => failuresOf(layout, deck, language, at, title))).toEqual([]);
      },
    );

    it('finds what it is there for: a name cut, a text too small, a box over another, a card left out', () => {
      const { deck, layout, title } = layouts('ja').find((l) => l.at === 'bri-usa-2 code ja') as {
        deck: Deck;
        layout: Layout;
        title: string;
      };
      expect(failuresOf(layout, deck, 'ja', 'as drawn', title)).toEqual([]);
      // The codes covered are the share codes and the client-storage ones; a title cut is found.
      expect(readable.length).toBeGreaterThan(share.length);
      expect(failuresOf({ ...layout, titleCut: true }, deck, 'ja', 'title', title)).toEqual([
        expect.stringContaining('title: title drawn'),
      ]);
      expect(failuresOf(layout, deck, 'ja', 'title', `${title} longer`)).toEqual([expect.stringContaining('title: title drawn')]);
      const i = layout.texts.findIndex((t) => t.card !== undefined);
      const piece = layout.texts[i] as DrawnText;
      const cut = layout.texts.with(i, { ...piece, text: `${[...piece.text].slice(0, -1).join('')}…` });
      const over = layout.texts.with(i + 1, { ...(layout.texts[i + 1] as DrawnText), x: piece.x + 1, y: piece.y });
      expect(failuresOf({ ...layout, texts: cut }, deck, 'ja', 'cut')).toEqual([
        expect.stringContaining(`drawn "${piece.text.slice(0, -1)}`),
      ]);
      expect(
        failuresOf({ ...layout, svg: layout.svg.replace(`font-size="${EMBED_LEAST_TEXT}"`, 'font-size="35"') }, deck, 'ja', 'small'),
      ).toEqual(['small: a text at 35 px']);
      expect(failuresOf({ ...layout, texts: over }, deck, 'ja', 'over').some((f) => f.includes(' over '))).toBe(true);
      // A deck of 40 cards named too long for the picture: the cards it cannot hold are said at its end, not cut.
      const sheet = codeSheet(deck, named, 'ja');
      const card = sheet.groups[0]?.cards[0] as SheetCard;
      const long = {
        ...sheet,
        groups: [
          {
            kredits: 1,
            count: 40,
            cards: Array.from({ length: 40 }, (_, k) => ({ ...card, card_id: `x${k}`, name: 'ア'.repeat(30), count: 1 })),
          },
        ],
      };
      const crowded = embedImageLayout(long, measurerFor('ja'));
      expect(crowded.hidden).toBeGreaterThan(0);
      expect(failuresOf(crowded, { ...deck, cards: [] }, 'ja', 'crowded')).toEqual([`crowded: ${crowded.hidden} cards left out`]);
      expect(crowded.texts.some((t) => t.text === labelsFor('ja').moreRows(crowded.hidden))).toBe(true);
      expect(crowded.texts.filter((t) => t.card !== undefined && t.text.endsWith('…'))).toEqual([]);
    });

    it('en, de, ja, zh-Hant, ko and ru drawn at 1200 and 400 px (docs/deck-image-embed-<language>.png and -400.png: UPDATE_SCREENSHOT=1)', async () => {
      const real = share.find((c) => c.key === 'bri-usa-2');
      for (const language of ['en', 'de', 'ja', 'zh-Hant', 'ko', 'ru']) {
        const { stored } = realDeck(
          real?.code as string,
          { author_name: 'A real deck', share_slug: 'realbriusa20', guide: { system: 'Tempo' } } as Partial<StoredDeck>,
          language,
        );
        const png = await renderPng(embedImageLayout(deckSheet(stored, named, language), measurerFor(language)).svg);
        const read = PNG.sync.read(png);
        expect([read.width, read.height]).toEqual([width, height]);
        if (process.env.UPDATE_SCREENSHOT) {
          writeFileSync(join(import.meta.dirname, `../../docs/deck-image-embed-${language}.png`), png);
          const small = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${shown}" height="${(shown * height) / width}"><image width="${shown}" height="${(shown * height) / width}" xlink:href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
          writeFileSync(join(import.meta.dirname, `../../docs/deck-image-embed-${language}-400.png`), await renderPng(small));
        }
      }
    });
  });

  it('the reported overflow: "COMMIT THE RESERVES" in a two-column Japan / United States deck ends inside its column', () => {
    const jpUsa = share.find((c) => c.key === 'jp-usa');
    expect(jpUsa).toBeDefined();
    const { texts } = realDeck(jpUsa?.code as string).layout;
    const commit = texts.find((t) => t.text.startsWith('COMMIT'));
    expect(commit).toBeDefined();
    expect((commit as PlacedText).x + (commit as PlacedText).width).toBeLessThanOrEqual(
      (commit as PlacedText).x + (commit as PlacedText).box + 0.5,
    );
  });
});

describe('the deck image, hostile deck strings', () => {
  const cat = demoCatalogue();
  it('an illegal deck with any author and system: the byline and the issue each inside its box', () => {
    const deck = parseDeckCode(legalCode(cat, 'soviet', 'usa'));
    // A card of neither faction, and a copy too many: issues that name cards.
    const illegal = { ...deck, cards: [...deck.cards.slice(2), { card_id: 'zz', count: 1 }] };
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 200 }), (author, system) => {
        const stored = storedDeck({
          deck_code: encodeDeckCode(illegal),
          author_name: author,
          guide: { system, description: '', core_cards: [], reserve_recommendations: [] },
        });
        const { texts } = deckImageLayout(deckSheet(stored, cat), measurerFor('en'));
        expect(outside(texts)).toEqual([]);
        expect(texts.some((t) => t.text.startsWith('Not legal'))).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('any name, author and system: every text inside its box', () => {
    const wide = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom(
        'W'.repeat(300),
        'Ш'.repeat(120),
        '𝕎'.repeat(80),
        'ﷺ'.repeat(50),
        'MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM',
      ),
    );
    fc.assert(
      fc.property(wide, wide, wide, (author, system, name) => {
        const stored = storedDeck({
          deck_code: legalCode(cat, 'soviet', 'usa'),
          author_name: author,
          name,
          guide: { system, description: '', core_cards: [], reserve_recommendations: [] },
        });
        expect(outside(deckImageLayout(deckSheet(stored, cat), measurerFor('en')).texts)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it("at an embed's size, any name, author and system, legal or not: every text inside its box and the picture, no box over another, every card named whole", () => {
    const deck = parseDeckCode(legalCode(cat, 'soviet', 'usa'));
    const illegal = encodeDeckCode({ ...deck, cards: [...deck.cards.slice(2), { card_id: 'zz', count: 1 }] });
    const wide = fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('W'.repeat(300), 'Ш'.repeat(120), '𝕎'.repeat(80), 'ﷺ'.repeat(50)));
    fc.assert(
      fc.property(wide, wide, wide, fc.boolean(), (author, system, name, legal) => {
        const stored = storedDeck({
          deck_code: legal ? legalCode(cat, 'soviet', 'usa') : illegal,
          author_name: author,
          name,
          guide: { system, description: '', core_cards: [], reserve_recommendations: [] },
        });
        const layout = embedImageLayout(deckSheet(stored, cat), measurerFor('en'));
        expect(outside(layout.texts)).toEqual([]);
        expect(boxFailures(layout, 'any')).toEqual([]);
        expect(layout.hidden).toBe(0);
        for (const { card_id } of parseDeckCode(stored.deck_code).cards) {
          const named = (cat.get(card_id)?.name ?? card_id).trim().replace(/ +/g, ' ');
          expect(drawnName(layout.texts, card_id)).toBe(named);
        }
      }),
      { numRuns: 60 },
    );
  });
});
