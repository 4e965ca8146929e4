/**
 * The share page's and the deck image's pure parts (lib/share): the sheet adds up to the deck, for any
 * legal deck; and whatever strings a deck, its author or the catalogue hold, the page and the SVG
 * parsed as a browser or renderer would (cheerio: HTML, and XML for the SVG) hold them as text — no
 * element, attribute or script of theirs.
 */
import * as cheerio from 'cheerio';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { defaultArchive } from '#rules/deck-model.ts';
import { deckName, FACTIONS, type FactionId, MAIN_FACTION_IDS } from '#rules/factions.ts';
import { breakable } from '#share/embed-image.ts';
import { arrangeColumns, columnWidths, deckImageSvg } from '#share/image.ts';
import { escapeMarkup } from '#share/markup.ts';
import { sharePage } from '#share/page.ts';
import { measurerFor } from '#share/png.ts';
import { deckSheet } from '#share/sheet.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { legalCode } from '../support/decks.ts';

const demo = demoCatalogue();
const pairs = MAIN_FACTION_IDS.flatMap((main) => FACTIONS.filter((f) => f.id !== main).map((f) => [main, f.id] as [FactionId, FactionId]));

const deckOf = (
  main: FactionId,
  ally: FactionId,
  offset: number,
  texts: Partial<Record<'author' | 'system' | 'description' | 'tag' | 'reason' | 'label', string>> = {},
): StoredDeck => {
  const deck_code = legalCode(demo, main, ally, 12, offset);
  const firstCard = /;;[^;]*;(..)/.exec(deck_code)?.[1];
  const archive = defaultArchive();
  return {
    id: 'd',
    user_id: 'u',
    share_slug: 'AAAAAAAAAAAA',
    author_name: texts.author ?? 'Author',
    name: deckName(main, ally),
    main_faction: main,
    ally_faction: ally,
    deck_code,
    tags: texts.tag ? [texts.tag] : [],
    visibility: 'public',
    sort_order: 0,
    guide: { system: texts.system ?? 'Tempo', description: texts.description ?? '', core_cards: [], reserve_recommendations: [] },
    archive: {
      ...archive,
      key_components:
        texts.reason && firstCard ? { enabled: true, items: [{ card_id: firstCard, reason: texts.reason }] } : archive.key_components,
      chart_settings:
        texts.label && firstCard
          ? { otkConfig: { items: [{ card_ids: [firstCard], required: 1, label: texts.label }] } }
          : archive.chart_settings,
    },
    display: { featured_card_id: null, card_back_id: null },
    views: 0,
    likes: 0,
    created_at: '2026-11-24T00:00:00.000Z',
    updated_at: '2026-11-24T00:00:00.000Z',
    version: 1,
  };
};

const URLS = {
  page: 'https://x/d/AAAAAAAAAAAA',
  json: 'https://x/api/v1/decks/AAAAAAAAAAAA',
  image: 'https://x/i.png',
  preview: 'https://x/p.png',
  similar: 'https://x/api/v1/codes/c/similar',
  deckPage: 'https://x/d/',
};

describe('the sheet', () => {
  it('property: for any legal deck, the groups hold every card once by its cost, the curve and types add up to 39', () => {
    fc.assert(
      fc.property(fc.constantFrom(...pairs), fc.nat(50), ([main, ally], offset) => {
        const deck = deckOf(main, ally, offset);
        const sheet = deckSheet(deck, demo);
        const listed = sheet.groups.flatMap((g) => g.cards.map((c) => ({ ...c, kredits: g.kredits })));
        expect(sheet.cardCount).toBe(39);
        expect(listed.reduce((n, c) => n + c.count, 0)).toBe(39);
        expect(new Set(listed.map((c) => c.card_id)).size).toBe(listed.length);
        for (const c of listed) expect([c.name, c.kredits]).toEqual([demo.get(c.card_id)?.name, demo.get(c.card_id)?.kredits]);
        expect(sheet.curve.reduce((n, c) => n + c.count, 0)).toBe(39);
        expect(sheet.types.reduce((n, t) => n + t.count, 0)).toBe(39);
        // Costs ascending, and the curve runs from the lowest to the highest without a gap.
        const costs = sheet.groups.map((g) => g.kredits as number);
        expect(costs).toEqual([...costs].sort((a, b) => a - b));
        expect(sheet.curve.map((c) => c.kredits)).toEqual(
          Array.from({ length: (costs.at(-1) as number) - (costs[0] as number) + 1 }, (_, i) => (costs[0] as number) + i),
        );
      }),
      { numRuns: 100 },
    );
  });
});

describe('markup in a deck is text', () => {
  const hostile = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom('<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "' onload='x", '&amp;&lt;', ']]><!--', '</text><rect/>'),
  );
  it('property: the page and the image hold every string as text, and no element of theirs', () => {
    fc.assert(
      fc.property(
        fc.record({
          author: hostile,
          system: hostile,
          description: hostile,
          tag: hostile,
          reason: hostile,
          label: hostile,
          archetype: hostile,
        }),
        (texts) => {
          // An archetype's name as a page is given it (a cluster's is named by its cards: text like any other).
          const sheet = { ...deckSheet(deckOf('soviet', 'usa', 0, texts), demo), archetype: texts.archetype };
          const $ = cheerio.load(sharePage(sheet, URLS));
          expect($('script').length).toBe(1);
          expect($('img, iframe, object, embed, link[rel!="icon"]').length).toBe(0);
          expect($('[onerror], [onload]').length).toBe(0);
          const body = $('body').text();
          for (const s of [texts.system, texts.description, texts.tag, texts.reason, texts.label, texts.archetype])
            if (s.trim()) expect(body).toContain(s);
          expect($('.archetype strong').text()).toBe(texts.archetype);
          expect($('meta[property="og:title"]').attr('content')).toBe(`${sheet.name} by ${texts.author}`);
          const svg = cheerio.load(deckImageSvg(sheet, measurerFor(sheet.language)), { xml: true });
          const elements = new Set(
            svg('*')
              .map((_, el) => (el as { tagName: string }).tagName)
              .get(),
          );
          expect([...elements].every((t) => ['svg', 'rect', 'text', 'tspan', 'line'].includes(t))).toBe(true);
          expect(svg('text').text()).toContain(`by ${texts.author}`.slice(0, 10));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('escapeMarkup leaves no markup character and reads back as the string', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const escaped = escapeMarkup(s);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(cheerio.load(`<p title="${escaped}">${escaped}</p>`)('p').attr('title')).toBe(s);
      }),
    );
  });
});

describe("the image's columns (issue 46: a continued cost keeps its heading, columns even, widths by need)", () => {
  type Row = Parameters<typeof arrangeColumns>[0][number];
  const card = (name: string): Row => ({ kind: 'card', count: 1, name, ally: false, flagged: false, reserved: false });
  const groupsOf = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 12 });
  const rowsOf = (sizes: number[]): Row[] =>
    sizes.flatMap((n, g) => [{ kind: 'group', text: `g${g}` } as Row, ...Array.from({ length: n }, (_, i) => card(`c${g}.${i}`))]);

  it('property: every card once and in order (or counted in the last row), no column over its rows, none ending on a heading, each starting with one', () => {
    fc.assert(
      fc.property(groupsOf, fc.integer({ min: 4, max: 16 }), (sizes, perColumn) => {
        const rows = rowsOf(sizes);
        const columns = arrangeColumns(
          rows,
          perColumn,
          3,
          (h) => `${h}+`,
          (n) => `more ${n}`,
        );
        const cards = columns.flat().flatMap((r) => (r.kind === 'card' ? [r.name] : []));
        const all = rows.flatMap((r) => (r.kind === 'card' ? [r.name] : []));
        const more = columns.at(-1)?.at(-1);
        const hidden = more?.kind === 'group' && more.text.startsWith('more ') ? Number(more.text.slice(5)) : 0;
        expect(cards).toEqual(all.slice(0, all.length - hidden));
        for (const [c, column] of columns.entries()) {
          expect(column.length).toBeLessThanOrEqual(perColumn);
          expect(column[0]?.kind).toBe('group');
          if (c < columns.length - 1) expect(column.at(-1)?.kind).toBe('card');
          // A column that goes on with a cost's cards says which: the cost's heading, marked continued.
          const first = column[0];
          if (c > 0 && first?.kind === 'group' && first.text.endsWith('+'))
            expect(rows).toContainEqual({ kind: 'group', text: first.text.slice(0, -1) });
        }
        // As few columns as hold every row: one fewer would not (their rows, plus a heading a column, exceed it).
        if (hidden === 0 && columns.length > 1)
          expect(rows.length).toBeGreaterThan((columns.length - 1) * perColumn - 2 * (columns.length - 1));
      }),
      { numRuns: 300 },
    );
  });

  it('widths: all the width is shared out; a column that needs less than an even share has what it needs; all fit when they can', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ min: 10, max: 600, noNaN: true }), { minLength: 1, maxLength: 3 }), (needs) => {
        const widths = columnWidths(needs, 752);
        expect(widths.reduce((a, b) => a + b, 0)).toBeCloseTo(752, 6);
        for (const [i, need] of needs.entries()) if (need <= 752 / needs.length) expect(widths[i]).toBeGreaterThanOrEqual(need - 1e-9);
        if (needs.reduce((a, b) => a + b, 0) <= 752)
          for (const [i, need] of needs.entries()) expect(widths[i]).toBeGreaterThanOrEqual(need - 1e-9);
      }),
    );
  });
});

describe("the embed image's line breaks (lib/share/embed-image.ts breakable)", () => {
  const joined = (pieces: { text: string; joiner: string }[]) => pieces.map((p, i) => (i ? p.joiner : '') + p.text).join('');
  it('breaks after a space (dropped), after a hyphen, and beside each CJK or Hangul character', () => {
    expect(breakable('PANZER III-J LATE')).toEqual([
      { text: 'PANZER', joiner: '' },
      { text: 'III-', joiner: ' ' },
      { text: 'J', joiner: '' },
      { text: 'LATE', joiner: ' ' },
    ]);
    expect(breakable('四式 中戦車').map((p) => p.text)).toEqual(['四', '式', '中', '戦', '車']);
    expect(breakable('四式 中戦車').map((p) => p.joiner)).toEqual(['', '', ' ', '', '']);
    expect(breakable('T-34 1942 (DE)').map((p) => p.text)).toEqual(['T-', '34', '1942', '(DE)']);
    expect(breakable('한국 전차').map((p) => p.text)).toEqual(['한', '국', '전', '차']);
  });
  it('joined by their joiners, the pieces are the text, its runs of spaces one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60, unit: fc.constantFrom('A', 'b', ' ', '-', '戦', '한', '1', '(', 'Ж') }), (s) => {
        const pieces = breakable(s);
        expect(joined(pieces)).toBe(s.trim().replace(/ +/g, ' '));
        expect(pieces.every((p) => p.text.length > 0 && !p.text.includes(' '))).toBe(true);
      }),
    );
  });
});
