/**
 * An owner's text in a deck image (contract §13.1, docs/api.md "never a box"): a character the image's faces lack is
 * drawn as "?", a stack of combining marks as one mark, in every served language — and the title names the factions
 * in the reader's language, as a code's image does.
 */
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { drawableSheet, drawnText, imageSvg } from '#public/image-answer.ts';
import { factionName } from '#rules/faction-names.ts';
import { labelsFor } from '#rules/labels.ts';
import { SERVED_LANGUAGES } from '#rules/languages.ts';
import { escapeMarkup } from '#share/markup.ts';
import { drawable } from '#share/png.ts';
import { deckSheet } from '#share/sheet.ts';
import { legalCode, storedDeck } from '../support/decks.ts';

const catalogue = demoCatalogue();
/** Every character the SVG draws as text (its <text> nodes, entities read back). */
const drawnIn = (svg: string) =>
  [...svg.matchAll(/<text[^>]*>([\s\S]*?)<\/text>/g)]
    .map((m) => (m[1] as string).replace(/<[^>]+>/g, ''))
    .join('')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe("an owner's text in a deck image", () => {
  it('a character no face of the language holds is "?"; a stack of combining marks is one mark', () => {
    expect(drawnText('علي 🔥 Aggro', 'en')).toBe('??? ? Aggro');
    const stacked = drawnText(`Ab${'\u0301\u0300\u0302'.repeat(20)}c`, 'en');
    expect([...stacked].filter((ch) => /\p{M}/u.test(ch)).length).toBeLessThanOrEqual(1);
    expect(stacked.startsWith('Ab') && stacked.endsWith('c')).toBe(true);
    expect(drawnText('Tempo', 'de')).toBe('Tempo');
  });

  it('a saved deck with an Arabic name, emoji and a stack of marks draws no character its faces lack, in every served language, at both sizes', () => {
    const deck = storedDeck({
      deck_code: legalCode(catalogue, 'japan', 'usa'),
      author_name: `علي 🔥 Ab${'\u0300'.repeat(40)} שלום`,
      guide: { system: '🔥 Aggro 💀🚀 ไทย', description: '', core_cards: [], reserve_recommendations: [] },
      tags: ['🔥', 'ok'],
    });
    for (const { tag } of SERVED_LANGUAGES) {
      const sheet = drawableSheet((language) => deckSheet(deck, catalogue, language), tag);
      for (const size of ['embed', 'wide'] as const) {
        const text = drawnIn(imageSvg(sheet, size));
        const lacking = [...new Set([...text].filter((ch) => ch.trim() !== '' && !drawable(ch, sheet.language)))];
        expect([tag, size, lacking]).toEqual([tag, size, []]);
      }
      // The byline keeps the card count whole however long the owner's name: the name is cut before it.
      const long = drawableSheet((language) => deckSheet({ ...deck, author_name: 'W'.repeat(64) }, catalogue, language), tag);
      expect([tag, imageSvg(long, 'embed').includes(escapeMarkup(labelsFor(long.language).cards(long.cardCount)))]).toEqual([tag, true]);
      // The title: the factions in the language drawn, not the stored (English) name.
      expect(sheet.name).toBe(`${factionName('japan', sheet.language)} / ${factionName('usa', sheet.language)}`);
    }
  });
});
