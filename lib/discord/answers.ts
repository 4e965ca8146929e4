/**
 * What the interactions endpoint answers (contract §11.3), pure: an interaction (already proven Discord's) in,
 * its response out — nothing drawn, nothing stored, so every answer is immediate (Discord waits 3 s).
 *   - PING (type 1) → PONG (type 1).
 *   - `/deck code:<text>` → a message (type 4) with one embed: the factions' names as title, a link to the
 *     code's page, its image (drawn when Discord fetches it: behind the edge, from the cache), a field per
 *     card type, the kredit curve, legality with its issues; an unreadable text → an ephemeral message saying
 *     what is wrong (flags 64: only its sender sees it), never a failed interaction.
 *   - `/card name:<text>` → a message with the card's facts — a name in any language, or a part of one (the best
 *     of its autocomplete); its autocomplete (type 4 interactions) → up to 25 choices (type 8), matched in the
 *     user's language (else English), case and accents folded, no two alike (a spawned form marked, then rarity,
 *     set or id).
 * The user's language is the interaction's `locale` (Discord's: `de`, `pt-BR`, `zh-TW`…) as the served
 * languages read a BCP 47 tag (rules/languages.ts: zh-TW → zh-Hant, pt-BR → pt, es-419 → es), English
 * otherwise. Card and faction names and every label follow it (rules/labels.ts), as on every page and image;
 * the deck rules' messages are the API's (English).
 * Every text of a deck or a user is escaped for Discord's markdown and cut to Discord's limits (Discord:
 * "Embed Limits": title 256, description 4,096, 25 fields, field name 256 and value 1,024, 6,000 in all);
 * no answer mentions anyone (allowed_mentions empty).
 * Shapes: discord-api-types (type-only imports: no code of it ships).
 */
import type {
  APIApplicationCommandAutocompleteResponse,
  APIApplicationCommandOptionChoice,
  APIEmbed,
  APIEmbedField,
  APIInteractionResponseChannelMessageWithSource,
  APIInteractionResponsePong,
} from 'discord-api-types/v10';
import type { ArchetypeRulesFile } from '#rules/archetypes.ts';
import { type Card, type CardType, cardName } from '#rules/card.ts';
import { cardOf, matchingCards } from '#rules/card-search.ts';
import type { Catalogue } from '#rules/catalogue.ts';
import { codeFacts } from '#rules/code-facts.ts';
import type { Deck } from '#rules/deck-code.ts';
import { factionName } from '#rules/faction-names.ts';
import { cutText, visible } from '#rules/invisible.ts';
import { type Labels, labelsFor } from '#rules/labels.ts';
import { answerLanguage } from '#rules/languages.ts';
import { DISCORD_LIMITS } from '#rules/limits.ts';
import { deckOfPaste, PastedDeckError } from '#rules/pasted-deck.ts';
import { COMMAND, OPTION } from './names.ts';

/** Interaction types and response types this endpoint knows (Discord: Interactions, "Receiving and Responding"). */
const INTERACTION = { ping: 1, command: 2, autocomplete: 4 } as const;
const EPHEMERAL = 64;

/** The links a deck's answer gives: its code page and its image, on the host Discord asked. */
export interface DeckLinks {
  codePage: string;
  image: string;
}

/** The public deck most like a /deck's deck (contract §12.3): its name, its share page, how alike (0–1). */
export interface Closest {
  name: string;
  sharePage: string;
  score: number;
}

/** What the endpoint needs besides the interaction. */
export interface AnswerContext {
  catalogue: Catalogue;
  /** The archetype rules in use (lib/catalogue/archetypes.ts), if any read. */
  archetypes?: ArchetypeRulesFile;
  /** A deck's links, in a language (lib/public/codes.ts codeLinks on the request's origin). */
  linksOf: (urlCode: string, language: string) => DeckLinks;
  /** The public deck most like the /deck's deck, when the endpoint found one (`deckOfCommand`). */
  closest?: Closest;
}

/** The deck a /deck command names (undefined for any other interaction, or a text that is no deck). */
export function deckOfCommand(interaction: unknown, catalogue: Catalogue): Deck | undefined {
  const it = (interaction ?? {}) as Interaction;
  if (it.type !== INTERACTION.command || it.data?.name !== COMMAND.deck) return undefined;
  const value = (Array.isArray(it.data?.options) ? it.data.options : []).find((o) => o?.name === OPTION.code)?.value;
  try {
    return typeof value === 'string' ? deckOfPaste(value, catalogue) : undefined;
  } catch (error) {
    if (error instanceof PastedDeckError) return undefined;
    throw error;
  }
}

/** Discord's markdown, escaped: every character it reads as markup shows as itself (a backslash before ASCII punctuation). */
export const escapeMarkdown = (text: string): string => text.replace(/[\\`*_~|<>#[\]()@]/g, '\\$&');

/** A text cut to `max` characters (UTF-16 units, as Discord counts): rules/invisible.ts cutText, at a code point's boundary. */
const cut = cutText;

const NO_MENTIONS = { parse: [] as never[] };

/** What this endpoint answers: a PONG, a message, or autocomplete's choices. */
export type Answer =
  | APIInteractionResponsePong
  | APIInteractionResponseChannelMessageWithSource
  | APIApplicationCommandAutocompleteResponse;
type Message = APIInteractionResponseChannelMessageWithSource;

/** A message only its sender sees. */
const ephemeral = (content: string): Message => ({
  type: 4,
  data: { content: cut(content, DISCORD_LIMITS.content), flags: EPHEMERAL, allowed_mentions: NO_MENTIONS },
});

interface Interaction {
  type?: unknown;
  locale?: unknown;
  data?: { name?: unknown; options?: { name?: unknown; value?: unknown; focused?: unknown }[] };
}

/** The response to an interaction. */
export function answerInteraction(interaction: unknown, context: AnswerContext): Answer {
  const it = (interaction ?? {}) as Interaction;
  if (it.type === INTERACTION.ping) return { type: 1 };
  // Labels in the player's language whatever the catalogue; card names in it where the catalogue has them.
  const language = answerLanguage(typeof it.locale === 'string' ? it.locale : undefined, undefined);
  const options = Array.isArray(it.data?.options) ? it.data.options : [];
  const option = (name: string) => {
    const value = options.find((o) => o?.name === name)?.value;
    return typeof value === 'string' ? value : '';
  };
  if (it.type === INTERACTION.autocomplete && it.data?.name === COMMAND.card)
    return { type: 8, data: { choices: cardChoices(option(OPTION.name), context.catalogue, language) } };
  if (it.type === INTERACTION.command && it.data?.name === COMMAND.deck) return deckAnswer(option(OPTION.code), context, language);
  if (it.type === INTERACTION.command && it.data?.name === COMMAND.card) return cardAnswer(option(OPTION.name), context, language);
  return ephemeral(labelsFor(language).unknownCommand);
}

function deckAnswer(text: string, context: AnswerContext, language: string): Message {
  let facts: ReturnType<typeof codeFacts>;
  try {
    facts = codeFacts(deckOfPaste(text, context.catalogue), context.catalogue, language, context.archetypes);
  } catch (error) {
    if (error instanceof PastedDeckError) return ephemeral(labelsFor(language).unreadable(escapeMarkdown(error.message)));
    throw error;
  }
  const embed = deckEmbed(facts, context.linksOf(facts.url_code, language), labelsFor(language), context.closest);
  return { type: 4, data: { embeds: [embed], allowed_mentions: NO_MENTIONS } };
}

/** A deck's embed: within every one of Discord's limits, whatever its cards are named. */
export function deckEmbed(facts: ReturnType<typeof codeFacts>, links: DeckLinks, labels: Labels, closest?: Closest): APIEmbed {
  const total = facts.cards.reduce((n, c) => n + c.count, 0);
  const title = cut(facts.name, DISCORD_LIMITS.title);
  const { valid, ranked } = facts.legality;
  const standing = !valid
    ? `⚠️ ${labels.notLegalShort}`
    : ranked.legal
      ? `✅ ${labels.legal}`
      : `✅ ${labels.legal} · 🚫 ${labels.notRankedShort}`;
  // Its archetype's name (the rules', at most 60 characters, shown as text), on a line of its own.
  const archetype = facts.archetype ? `\n${labels.archetype}: ${escapeMarkdown(facts.archetype.name)}` : '';
  const description = `${labels.cards(total)} · ${standing}${archetype}\n\`${facts.deck_code}\``;
  const curve = Object.entries(facts.stats.by_kredits);
  const most = Math.max(1, ...curve.map(([, n]) => n));
  const fixed: APIEmbedField[] = [];
  if (curve.length > 0)
    fixed.push({
      name: labels.kreditCurve,
      value: `\`\`\`\n${curve.map(([k, n]) => `${k.padStart(2)}K ${'█'.repeat(Math.ceil((n / most) * 12)).padEnd(12)} ${n}`).join('\n')}\n\`\`\``,
    });
  // The closest public deck: its name as text (escaped, cut to leave room for its link and score), linked to its page.
  if (closest)
    fixed.push({
      name: labels.closestDeck,
      value: `[${escapeMarkdown(cut(closest.name, 200))}](${closest.sharePage}) · ${Math.round(closest.score * 100)}%`,
    });
  const reserved = new Set(ranked.reserved_cards);
  if (reserved.size > 0)
    fixed.push({
      name: labels.notRanked,
      value: lines(
        facts.cards.filter((c) => reserved.has(c.card_id)).map((c) => `• ${escapeMarkdown(c.name ?? `[${c.card_id}]`)}`),
        DISCORD_LIMITS.fieldValue,
        labels,
      ),
    });
  if (!facts.legality.valid)
    fixed.push({
      name: labels.whyNotLegal,
      value: lines(
        facts.legality.errors.map((e) => `• ${escapeMarkdown(e.message)}`),
        DISCORD_LIMITS.fieldValue,
        labels,
      ),
    });
  // The cards, a field a type (in the order of the deck's kredits), sharing what the total leaves.
  const byType = new Map<string, typeof facts.cards>();
  for (const card of facts.cards) {
    const type = card.type ?? 'unknown';
    byType.set(type, [...(byType.get(type) ?? []), card]);
  }
  const used = title.length + description.length + fixed.reduce((n, f) => n + f.name.length + f.value.length, 0);
  const names = [...byType.keys()].map(
    (type) =>
      `${type === 'unknown' ? labels.notInCatalogue : labels.type[type as CardType]} · ${(byType.get(type) ?? []).reduce((n, c) => n + c.count, 0)}`,
  );
  const share = Math.min(
    DISCORD_LIMITS.fieldValue,
    Math.floor((DISCORD_LIMITS.embedTotal - used - names.reduce((n, name) => n + name.length, 0)) / Math.max(1, byType.size)),
  );
  const typeFields = [...byType.values()].map((cards, i) => ({
    name: names[i] as string,
    value: lines(
      cards.map(
        (c) =>
          `${c.count}× ${escapeMarkdown(c.name ?? `[${c.card_id}]`)} (${c.kredits ?? '?'}K)${reserved.has(c.card_id) ? ` ${labels.reserveMark}` : ''}`,
      ),
      share,
      labels,
    ),
    inline: true,
  }));
  return { title, url: links.codePage, description, fields: [...typeFields, ...fixed], image: { url: links.image } };
}

/** Lines joined within `max` characters: as many as fit, then how many more there are. */
function lines(all: readonly string[], max: number, labels: Labels): string {
  const kept: string[] = [];
  let size = 0;
  for (const [i, line] of all.entries()) {
    const rest = all.length - i - 1;
    const more = rest > 0 ? `\n${labels.more(rest)}`.length : 0;
    if (size + line.length + 1 + more > max) {
      const left = all.length - i;
      const tail = labels.more(left);
      return kept.length === 0 ? cut(tail, max) : `${kept.join('\n')}\n${tail}`;
    }
    kept.push(cut(line, max));
    size += line.length + 1;
  }
  return kept.join('\n') || '—';
}

function cardAnswer(value: string, context: AnswerContext, language: string): Message {
  const labels = labelsFor(language);
  const card = cardOf(value, context.catalogue, language);
  // What the player typed, echoed as text a reader sees: no lone surrogate, control or format character sent back.
  if (!card) return ephemeral(labels.noCard(escapeMarkdown(visible(cut(value, 100)))));
  const notes = [
    card.derived ? labels.spawned : undefined,
    card.exile ? labels.alsoServes(factionName(card.exile, language)) : undefined,
    card.reserved ? labels.reserveTitle : undefined,
  ].filter(Boolean);
  const embed: APIEmbed = {
    // Escaped as every text of the catalogue is: a card named `**@everyone** [click](…)` shows as written, not as a link.
    title: cut(escapeMarkdown(cardName(card, language)), DISCORD_LIMITS.title),
    ...(notes.length > 0 ? { description: notes.join('\n') } : {}),
    fields: [
      { name: labels.kredits, value: String(card.kredits), inline: true },
      { name: labels.typeField, value: labels.type[card.type], inline: true },
      { name: labels.rarityField, value: labels.rarity[card.rarity], inline: true },
      {
        name: labels.nation,
        value: card.faction === 'neutral' ? labels.neutral : escapeMarkdown(factionName(card.faction, language)),
        inline: true,
      },
      { name: labels.set, value: cut(escapeMarkdown(card.set), DISCORD_LIMITS.fieldValue) || '—', inline: true },
    ],
  };
  return { type: 4, data: { embeds: [embed], allowed_mentions: NO_MENTIONS } };
}

/**
 * Autocomplete: up to 25 cards matching what was typed (lib/rules/card-search.ts), each named so that no two look the same: its
 * name and kredits, a spawned card's mark, and where some are still alike the first of their rarity, their set
 * (a veteran form's is `Special` in the real catalogue) and their id that tells them apart.
 */
export function cardChoices(typed: string, catalogue: Catalogue, language: string): APIApplicationCommandOptionChoice[] {
  const labels = labelsFor(language);
  const shown = matchingCards(typed, catalogue, language).slice(0, DISCORD_LIMITS.choices);
  const texts = shown.map(({ card, name }) => `${name} · ${card.kredits}K${card.derived ? ` · ${labels.spawnedMark}` : ''}`);
  // Choices still alike: each group told apart by the first of rarity, set and id that differs within it.
  const groups = new Map<string, number[]>();
  for (const [i, t] of texts.entries()) groups.set(t, [...(groups.get(t) ?? []), i]);
  const apart = [(c: Card) => labels.rarity[c.rarity], (c: Card) => c.set, (c: Card) => c.card_id];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const cards = group.map((i) => (shown[i] as (typeof shown)[number]).card);
    const by = apart.find((f) => new Set(cards.map(f)).size === cards.length) ?? apart[2];
    group.forEach((i, j) => {
      texts[i] = `${texts[i]} · ${(by as (c: Card) => string)(cards[j] as Card)}`;
    });
  }
  return shown.map(({ card }, i) => ({ name: cut(texts[i] as string, DISCORD_LIMITS.choiceName), value: card.card_id }));
}
