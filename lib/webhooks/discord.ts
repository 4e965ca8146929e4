/**
 * A delivery to a Discord webhook (contract §13.5): a Discord message instead of the Standard Webhooks body — a deck's
 * event the `/deck` command's embed (lib/discord/answers.ts) under a line naming the event, anything else that line
 * alone; no one mentioned. Discord: "Execute Webhook" (content ≤ 2,000 characters, embeds, allowed_mentions).
 */
import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { deckEmbed, escapeMarkdown } from '#discord/answers.ts';
import { codeLinks } from '#public/codes.ts';
import { codeFacts } from '#rules/code-facts.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { cutText } from '#rules/invisible.ts';
import { labelsFor } from '#rules/labels.ts';
import { DISCORD_LIMITS } from '#rules/limits.ts';
import { urlCodeOf } from '#rules/url-code.ts';

const LINES: Record<string, string> = {
  'deck.published': 'A deck was published',
  'deck.updated': 'A public deck was changed',
  'deck.unpublished': 'A deck is no longer public',
  'catalogue.published': 'The card catalogue was updated',
  'event.locked': "An event's entries are locked",
};

interface Sent {
  type: string;
  data: { deck?: { name?: string; share_slug?: string; deck_code?: string; links?: { page?: string } }; share_slug?: string };
}

/** The Discord message of a delivery's body (a Standard Webhooks body, as stored); `origin` the service's. */
export function discordMessage(body: string, origin: string): string {
  const sent = JSON.parse(body) as Sent;
  const deck = sent.data?.deck;
  const what = LINES[sent.type] ?? sent.type;
  const line = deck?.name
    ? `${what}: **${escapeMarkdown(deck.name)}** ${deck.links?.page ?? ''}`
    : `${what}${sent.data?.share_slug ? ` (${sent.data.share_slug})` : ''}`;
  const message: Record<string, unknown> = { content: cutText(line.trim(), DISCORD_LIMITS.content), allowed_mentions: { parse: [] } };
  if (deck?.deck_code) {
    const code = parseDeckCode(deck.deck_code);
    const facts = codeFacts(code, catalogue(), 'en', archetypeRules());
    const { page, preview } = codeLinks(origin, urlCodeOf(code), 'en');
    message.embeds = [deckEmbed(facts, { codePage: page, image: preview }, labelsFor('en'))];
  }
  return JSON.stringify(message);
}
