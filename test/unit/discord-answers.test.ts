/**
 * What Discord is answered, pure (lib/discord/answers.ts): texts cut at a code point's boundary, never inside a
 * surrogate pair, and a catalogue's names escaped in the `/card` embed as every deck text is (issue 53).
 */
import { describe, expect, it } from 'vitest';
import { loadCatalogueFile } from '#catalogue/load.ts';
import { answerInteraction, cardChoices, escapeMarkdown } from '#discord/answers.ts';
import { makeCatalogue } from '#rules/catalogue.ts';
import { factionName } from '#rules/faction-names.ts';
import { cutText as cut } from '#rules/invisible.ts';
import { labelsFor } from '#rules/labels.ts';
import { DISCORD_LIMITS } from '#rules/limits.ts';
import { TINY_CODE, tiny } from '../support/decks.ts';
import { hasRealCatalogue, REAL_CATALOGUE_FILE } from '../support/shared.ts';

const HOSTILE = '**@everyone** [click](https://evil.example/x)';
const catalogue = makeCatalogue([
  ...tiny.cards,
  { ...(tiny.get('s1') as NonNullable<ReturnType<typeof tiny.get>>), card_id: 'zz', name: HOSTILE },
]);
const context = { catalogue, linksOf: () => ({ codePage: 'https://decks.example/c/x', image: 'https://decks.example/c/x/image.png' }) };
const card = (value: string) =>
  answerInteraction({ type: 2, locale: 'en-US', data: { name: 'card', options: [{ name: 'name', value }] } }, context) as {
    data: { content?: string; embeds?: { title: string }[] };
  };
/** Markdown's escapes undone: what a reader sees. */
const shown = (markdown: string) => markdown.replace(/\\(.)/g, '$1');

describe('Discord answers', () => {
  it("labels and faction names in the player's locale whatever the catalogue (one named in English alone): card names English", () => {
    for (const locale of ['ja', 'zh-TW', 'ko', 'ru', 'de']) {
      const language = locale === 'zh-TW' ? 'zh-Hant' : locale;
      const unknown = answerInteraction({ type: 2, locale, data: { name: 'nope' } }, context) as { data: { content: string } };
      expect([locale, unknown.data.content]).toEqual([locale, labelsFor(language).unknownCommand]);
      const deck = JSON.stringify(
        answerInteraction({ type: 2, locale, data: { name: 'deck', options: [{ name: 'code', value: TINY_CODE }] } }, context),
      );
      expect([locale, deck.includes(factionName('soviet', language)), deck.includes(tiny.get('s1')?.name as string)]).toEqual([
        locale,
        true,
        true,
      ]);
      expect([locale, deck.includes(factionName('soviet', 'en'))]).toEqual([locale, false]);
    }
  });

  it('cuts at a code point: no lone surrogate, within the limit, for every length around it', () => {
    for (let n = 1; n <= 120; n++) {
      const text = '🃏'.repeat(n);
      for (const max of [99, 100, 256]) {
        const out = cut(text, max);
        expect(out.isWellFormed(), `${n} emoji cut to ${max}`).toBe(true);
        expect(out.length).toBeLessThanOrEqual(max);
        if (text.length > max) expect(out.endsWith('…')).toBe(true);
      }
    }
  });

  it('/card echoes no lone surrogate, control or format character of what it was sent; a /deck text cut mid-pair shows no escape', () => {
    for (const value of [
      '\ud800 lone high, lone low \udc00',
      'a\u0000b\u0007c\u001bd\u007f',
      '\u202eevil\u202c',
      `${'x'.repeat(99)}🃏tail`,
    ]) {
      const content = card(value).data.content as string;
      expect([value, content.isWellFormed()]).toEqual([value, true]);
      expect([value, /[\p{Cc}\p{Cf}\p{Cs}]/u.test(content)]).toEqual([value, false]);
    }
    expect(card('\ud800 lone').data.content).toContain('\ufffd lone');
    // A line quoted in /deck's answer, its 59th unit the first half of a pair: no `\ud83d` written out.
    const deck = answerInteraction(
      {
        type: 2,
        locale: 'en-US',
        data: { name: 'deck', options: [{ name: 'code', value: `2x (1K) ${'y'.repeat(58)}🃏🃏 and more` }] },
      },
      context,
    ) as { data: { content: string } };
    expect(deck.data.content).not.toMatch(/\\u[dD][89abAB]/);
    expect(deck.data.content.isWellFormed()).toBe(true);
  });

  it("/card with 60 emoji: an ephemeral answer, well formed, within Discord's limit", () => {
    const answer = card('🃏'.repeat(60));
    expect(answer.data.content?.isWellFormed()).toBe(true);
    expect(answer.data.content?.length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
  });

  it("/card's title is the card's name escaped: markdown and links show as written", () => {
    const [embed] = card('zz').data.embeds ?? [];
    expect(embed?.title).toBe(escapeMarkdown(HOSTILE));
    expect(shown(embed?.title ?? '')).toBe(HOSTILE);
    expect(embed?.title).not.toContain('**@');
  });
});

describe.runIf(hasRealCatalogue)('/card finds what a player types (the real catalogue, English names)', () => {
  const real = hasRealCatalogue ? loadCatalogueFile(REAL_CATALOGUE_FILE) : catalogue;
  const realContext = { ...context, catalogue: real };
  const titleOf = (value: string, locale = 'en-US') =>
    (
      answerInteraction({ type: 2, locale, data: { name: 'card', options: [{ name: 'name', value }] } }, realContext) as {
        data: { embeds?: { title: string }[]; content?: string };
      }
    ).data.embeds?.[0]?.title;
  const fold = (s: string) => s.toLowerCase();

  it('a part of a name finds the card whose name begins with it (an exact name first, a playable card before a spawned one)', () => {
    for (const typed of ['T-34', 'panzer iv', 'PANZER I-B', 'kv-1', 'sherman']) {
      const q = fold(typed);
      // What the catalogue says the answer is: a card named exactly so, else one whose name begins with it, else one
      // with a word that begins with it; a playable one.
      const tiers = [
        real.cards.filter((c) => fold(c.name) === q),
        real.cards.filter((c) => fold(c.name).startsWith(q)),
        real.cards.filter((c) =>
          fold(c.name)
            .split(' ')
            .some((w) => w.startsWith(q)),
        ),
      ];
      const expected = (tiers.find((t) => t.some((c) => !c.derived)) ?? []).filter((c) => !c.derived).map((c) => c.name);
      expect(expected.length, typed).toBeGreaterThan(0);
      expect([typed, expected.includes(shown(titleOf(typed) ?? ''))]).toEqual([typed, true]);
    }
    // A name that is a card's exactly is that card, before the longer names it begins.
    const panzer = real.cards.find((c) => fold(c.name) === 'panzer iii-j') as { name: string };
    expect(shown(titleOf('panzer iii-j') ?? '')).toBe(panzer.name);
  });

  it('autocomplete never shows two choices alike: for every first two letters of a name, and the alike pairs of the catalogue, in three languages', () => {
    const typed = new Set(['', 'T-34', 'panzer iv', 'PANZER I-B', 'panzer iii-j', ...real.cards.map((c) => c.name.slice(0, 2))]);
    for (const language of ['en', 'de', 'ja'])
      for (const t of typed) {
        const names = cardChoices(t, real, language).map((c) => c.name);
        expect([language, t, new Set(names).size]).toEqual([language, t, names.length]);
      }
    // A card and its other form with the same name are both listed, told apart.
    const pairs = [...Map.groupBy(real.cards, (c) => c.name)].filter(([, cards]) => cards.length > 1);
    expect(pairs.length).toBeGreaterThan(0);
    for (const [name, cards] of pairs) {
      const choices = cardChoices(name, real, 'en').filter((c) => cards.some((card) => card.card_id === c.value));
      expect([name, choices.length]).toEqual([name, Math.min(cards.length, 25)]);
    }
  });
});
