/**
 * Every label of a page, an image and a Discord embed in the answer's language (contract §11.5). Each label
 * of English (rules/labels.ts, every one listed by key) is cut into its literal words around its arguments;
 * a page, an image and the embeds drawn in German, Japanese and Chinese — with everything a label is written
 * for on them: an author, a guide, key components, an alternative, an OTK item, "in N%", an illegal card, a
 * card of the Reserve pool, a card the catalogue lacks — must hold none of English's words that the language
 * does not share (German's "Bomber" is German), once the deck's own strings (card and faction names, the
 * owner's text, the code) are taken out.
 */
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { answerInteraction, deckEmbed, escapeMarkdown } from '#discord/answers.ts';
import { cardName } from '#rules/card.ts';
import { makeCatalogue } from '#rules/catalogue.ts';
import { codeFacts } from '#rules/code-facts.ts';
import { encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { defaultArchive } from '#rules/deck-model.ts';
import { checkDeck } from '#rules/deck-rules.ts';
import { factionName } from '#rules/faction-names.ts';
import { FACTIONS } from '#rules/factions.ts';
import { LABELS, type Labels, labelsFor, labelTexts } from '#rules/labels.ts';
import { SERVED_LANGUAGES } from '#rules/languages.ts';
import { deckImageLayout } from '#share/image.ts';
import { sharePage } from '#share/page.ts';
import { measurerFor } from '#share/png.ts';
import { codeSheet, deckSheet } from '#share/sheet.ts';
import { legalDeck, storedDeck } from '../support/decks.ts';

/** A label's literal words: what it writes around its arguments (called with the number 5 for each). */
function words(value: Labels[keyof Labels]): string[] {
  const texts =
    typeof value === 'string'
      ? [value]
      : typeof value === 'function'
        ? [(value as (...args: unknown[]) => string)(5, 5, '5%')]
        : Object.values(value as Record<string, string>);
  return texts
    .flatMap((t) => t.split(/5%?/))
    .map((w) => w.replace(/^[\s·:()+,.…—-]+|[\s·:()+,.…—-]+$/g, ''))
    .filter((w) => /\p{L}{2}/u.test(w));
}

/** English's words a language does not share, by label. */
const englishOnly = (language: string): [string, string][] => {
  const own = new Set(Object.values(labelsFor(language)).flatMap(words));
  return Object.entries(LABELS.en).flatMap(([key, value]) =>
    words(value as Labels[keyof Labels])
      .filter((w) => !own.has(w))
      .map((w) => [key, w] as [string, string]),
  );
};

const LANGUAGES = ['de', 'ja', 'zh'] as const;
const demo = demoCatalogue();
// The demo cards named in every served language (their own names: what a fetched catalogue gives).
const named = makeCatalogue(
  demo.cards.map((c) => ({
    ...c,
    names: Object.fromEntries(SERVED_LANGUAGES.filter((l) => l.tag !== 'en').map((l) => [l.tag, `${c.card_id}〈${l.tag}〉`])),
  })),
);
const reserved = named.cards.find((c) => c.reserved && c.faction === 'soviet')?.card_id as string;
const legal = legalDeck(named, 'soviet', 'usa');
expect(legal.some((c) => c.card_id === reserved)).toBe(false);
const [head, ...rest] = legal as [{ card_id: string; count: number }, ...{ card_id: string; count: number }[]];
// Legal (39 cards) but not for ranked play: one copy of the first card given up for a card of the Reserve pool.
const ranked39 = {
  main: 'soviet' as const,
  ally: 'usa' as const,
  cards: [...(head.count > 1 ? [{ ...head, count: head.count - 1 }] : []), ...rest, { card_id: reserved, count: 1 }],
};
// And illegal too: a card the catalogue lacks.
const illegal = { ...ranked39, cards: [...ranked39.cards, { card_id: 'zz', count: 1 }] };
const first = rest[0]?.card_id as string;
const second = rest[1]?.card_id as string;

/** What a deck of its own puts on the page: taken out before looking for labels. */
const deckStrings = (language: string): string[] =>
  [
    ...named.cards.flatMap((c) => [cardName(c, language), c.name, c.set]),
    ...FACTIONS.flatMap((f) => [factionName(f.id, language), factionName(f.id, 'en')]),
    'Ann Author',
    'Tempo Soviets',
    'Push early.',
    'Cheap',
    'My OTK',
    'AAAAAAAAAAAA',
    encodeDeckCode(illegal),
    encodeDeckCode(ranked39),
    // The deck rules' messages: the API's, English as every error of the API (not labels).
    ...checkDeck(illegal, named).map((d) => escapeMarkdown(d.message)),
    ...checkDeck(illegal, named).map((d) => d.message),
  ].sort((a, b) => b.length - a.length);

/**
 * What a reader reads of a text, the deck's own strings and URLs taken out: of a page, its text and the
 * attributes people see (title, alt, content, the copy button's words), its markup and entities read; of
 * an embed (JSON), its strings.
 */
function labelsOnly(text: string, language: string): string {
  const html = text.startsWith('<!doctype');
  const json = text.startsWith('{');
  const strings = (v: unknown): string[] =>
    typeof v === 'string' ? [v] : typeof v === 'object' && v !== null ? Object.values(v).flatMap(strings) : [];
  let out = html
    ? [
        ...[...text.matchAll(/\b(?:title|content|alt|data-copied|data-select)="([^"]*)"/g)].map((m) => m[1]),
        text.replace(/<style>[\s\S]*?<\/style>|<script>[\s\S]*?<\/script>/g, ' ').replace(/<[^>]*>/g, '\n'),
      ].join('\n')
    : json
      ? strings(JSON.parse(text)).join('\n')
      : text;
  out = out
    .replace(/https?:\/\/[^\s"<>]+/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  for (const s of deckStrings(language)) out = out.split(s).join(' ');
  return out;
}

/** English's words found in a text in `language` (a word at a boundary of letters: "Set" is not in "Settings"). */
const englishIn = (text: string, language: string): string[] => {
  const seen = labelsOnly(text, language);
  return englishOnly(language)
    .filter(([, w]) => new RegExp(`(?<!\\p{L})${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\p{L})`, 'u').test(seen))
    .map(([key, w]) => `${key}: ${w}`);
};

const saved = (language: string, code: string) =>
  deckSheet(
    storedDeck({
      deck_code: code,
      author_name: 'Ann Author',
      share_slug: 'AAAAAAAAAAAA',
      guide: { system: 'Tempo Soviets', description: 'Push early.', core_cards: [], reserve_recommendations: [] },
      archive: {
        ...defaultArchive(),
        key_components: { enabled: true, items: [{ card_id: first, reason: 'Cheap' }] },
        alternatives: { enabled: true, items: [{ card_id: second, replaces_card_id: first, reason: 'Cheap' }] },
        chart_settings: { otkConfig: { items: [{ card_ids: [first], required: 1, label: 'My OTK' }] } },
      },
    }),
    named,
    language,
    { decks: 3, cards: new Map([[first, { decks: 2 }]]) },
  );
const URLS = {
  page: 'https://x/d/AAAAAAAAAAAA',
  json: 'https://x/api/v1/decks/AAAAAAAAAAAA',
  image: 'https://x/i.png',
  preview: 'https://x/p.png',
  similar: 'https://x/api/v1/codes/c/similar',
  deckPage: 'https://x/d/',
};

describe('labels (contract §11.5)', () => {
  it('every served language has every label (the compiler holds them); English words are found in English', () => {
    expect(Object.keys(LABELS).sort()).toEqual(SERVED_LANGUAGES.map((l) => l.tag).sort());
    for (const language of Object.keys(LABELS)) expect(Object.keys(labelsFor(language)).sort()).toEqual(Object.keys(LABELS.en).sort());
    // The check itself: an English page holds English's words (what it would find if a label were left in English).
    const page = sharePage(saved('en', encodeDeckCode(illegal)), URLS);
    expect(labelsOnly(page, 'en')).toContain('Cards by kredit cost');
    expect(englishOnly('de').map(([, w]) => w)).toContain('Cards by kredit cost');
    expect(labelsFor('xx')).toBe(LABELS.en);
    expect(labelTexts('ja').join('')).toContain('クレジット');
  });

  it.each(LANGUAGES)('%s: the share page of a saved deck and of a bare code hold no English label', (language) => {
    for (const code of [encodeDeckCode(illegal), encodeDeckCode(ranked39)]) {
      const page = sharePage(saved(language, code), URLS);
      expect(page).toContain(labelsFor(language).cardsByKredits);
      expect(page).toContain(labelsFor(language).notRanked);
      expect(englishIn(page, language)).toEqual([]);
      const bare = sharePage(codeSheet(parseDeckCode(code), named, language), URLS);
      expect(englishIn(bare, language)).toEqual([]);
    }
  });

  it.each(LANGUAGES)(
    '%s: the images (a saved deck, a bare code; illegal, and legal but not for ranked play) hold no English label',
    (language) => {
      for (const code of [encodeDeckCode(illegal), encodeDeckCode(ranked39)]) {
        for (const sheet of [saved(language, code), codeSheet(parseDeckCode(code), named, language)]) {
          const { texts } = deckImageLayout(sheet, measurerFor(language));
          // The issue line: its label, then the first rule's message (the API's, English), shortened to its box.
          const said = labelsFor(language).notLegalLine('', 0).trimEnd();
          const drawn = texts.map((t) => (t.text.startsWith(said) ? said : t.text)).join('\n');
          expect(englishIn(drawn, language)).toEqual([]);
        }
      }
      const legalImage = deckImageLayout(codeSheet(ranked39, named, language), measurerFor(language));
      expect(legalImage.texts.some((t) => t.text === labelsFor(language).reserveMark)).toBe(true);
    },
  );

  it.each(LANGUAGES)('%s: the /deck and /card embeds and the ephemeral messages hold no English label', (language) => {
    const links = { codePage: 'https://x/c/1', image: 'https://x/c/1.png' };
    for (const deck of [illegal, ranked39]) {
      const embed = deckEmbed(codeFacts(deck, named, language, undefined), links, labelsFor(language));
      expect(englishIn(JSON.stringify(embed), language)).toEqual([]);
    }
    const context = { catalogue: named, linksOf: () => links };
    const locale = language === 'zh' ? 'zh-CN' : language;
    const command = (name: string, options: object[]) =>
      JSON.stringify(answerInteraction({ type: 2, locale, data: { name, options } }, context));
    for (const card of [reserved, named.cards.find((c) => c.exile)?.card_id, named.cards.find((c) => c.derived)?.card_id])
      expect(englishIn(command('card', [{ name: 'name', value: card }]), language)).toEqual([]);
    expect(
      englishIn(command('card', [{ name: 'name', value: 'no such card at all' }]).replace('no such card at all', ''), language),
    ).toEqual([]);
    // An unreadable deck: the label is the language's, what is wrong the API's own message (English, as every error's).
    const unreadable = JSON.parse(command('deck', [{ name: 'code', value: '%%45|zz' }])).data.content as string;
    expect(unreadable.startsWith(labelsFor(language).unreadable(''))).toBe(true);
    expect(englishIn(command('nothing', []), language)).toEqual([]);
  });
});
