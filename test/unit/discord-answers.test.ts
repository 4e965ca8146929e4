/**
 * What Discord is answered, pure (lib/discord/answers.ts): texts cut at a code point's boundary, never inside a
 * surrogate pair, and a catalogue's names escaped in the `/card` embed as every deck text is (issue 53).
 */
import { describe, expect, it } from 'vitest';
import { answerInteraction, cut, escapeMarkdown } from '#discord/answers.ts';
import { makeCatalogue } from '#rules/catalogue.ts';
import { DISCORD_LIMITS } from '#rules/limits.ts';
import { tiny } from '../support/decks.ts';

const HOSTILE = '**@everyone** [click](https://evil.example/x)';
const catalogue = makeCatalogue([
  ...tiny.cards,
  { ...(tiny.get('s1') as NonNullable<ReturnType<typeof tiny.get>>), card_id: 'zz', name: HOSTILE },
]);
const context = { catalogue, linksOf: () => ({ page: 'https://decks.example/c/x', image: 'https://decks.example/c/x/image.png' }) };
const card = (value: string) =>
  answerInteraction({ type: 2, locale: 'en-US', data: { name: 'card', options: [{ name: 'name', value }] } }, context) as {
    data: { content?: string; embeds?: { title: string }[] };
  };
/** Markdown's escapes undone: what a reader sees. */
const shown = (markdown: string) => markdown.replace(/\\(.)/g, '$1');

describe('Discord answers', () => {
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
