/**
 * What a person sees of a shared deck (contract §9.3), pure: the deck read against the catalogue the
 * service runs with — its cards grouped by kredit cost with names, the kredit curve and type counts,
 * the guide, key components and alternatives with their reasons, the OTK chart, what breaks the deck
 * rules today. A saved deck's sheet (deckSheet) or a bare code's (codeSheet: no name, author, guide or
 * chart of an owner — its factions' names are its title). The share pages (page.ts) and the deck images
 * (image.ts) draw it; neither reads a deck or a catalogue itself.
 */
import { type CardType, cardName, type Rarity } from '#rules/card.ts';
import type { Catalogue } from '#rules/catalogue.ts';
import { type Deck, encodeDeckCode } from '#rules/deck-code.ts';
import { checkDeck, countsAs } from '#rules/deck-rules.ts';
import { factionName } from '#rules/faction-names.ts';
import { DECK_TYPES, type DeckType, otkChart } from '#rules/insight.ts';
import { labelsFor } from '#rules/labels.ts';
import { DEFAULT_LANGUAGE } from '#rules/languages.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import type { StoredDeck } from '#store/items/deck.ts';

export interface SheetCard {
  card_id: string;
  /** The catalogue's name; the card id when the catalogue no longer has it. */
  name: string;
  count: number;
  /** It counts as the ally faction (as the ally limit counts: its faction, or its exile's, is the ally). */
  ally: boolean;
  /** A deck rule fails on it today (legality, contract §8.6): unknown, of neither faction, too many copies… */
  flagged: boolean;
  /** In the Reserve pool: ranked play refuses the deck (contract §11.5). */
  reserved: boolean;
  /** Its type and rarity; null when the catalogue no longer has it. */
  type: CardType | null;
  rarity: Rarity | null;
  /** The share of the library's public decks of the deck's main nation that play it (0–1); null when not asked or none. */
  played: number | null;
}
/** What the library's public decks of a main nation play (lib/store/plays.ts `readPool`): the share page's "in N%". */
export interface Played {
  decks: number;
  cards: ReadonlyMap<string, { decks: number }>;
}
export interface KreditGroup {
  /** The kredit cost; null for cards the catalogue no longer has. */
  kredits: number | null;
  count: number;
  cards: SheetCard[];
}
export interface Reasoned {
  name: string;
  reason: string;
  replaces?: string;
}
export interface OtkLine {
  label: string;
  required: number;
  pool_copies: number;
  /** by_draws[n-1]: the chance of the combination within the first n cards. */
  by_draws: number[];
}
export interface DeckSheet {
  /** The saved deck's share slug; null for a bare code. */
  slug: string | null;
  name: string;
  /** Its archetype's name (contract §13.3), in the sheet's language where the page names it so; null: none. */
  archetype: string | null;
  main: string;
  ally: string;
  /** The owner's name; null for a bare code. */
  author: string | null;
  code: string;
  tags: string[];
  system: string;
  description: string;
  cardCount: number;
  groups: KreditGroup[];
  /** Copies at each cost from the lowest to the highest in the deck (a cost with none between is 0): the kredit curve. */
  curve: { kredits: number; count: number }[];
  types: { type: DeckType; count: number }[];
  keyComponents: Reasoned[];
  alternatives: Reasoned[];
  otk: OtkLine[];
  /** Kept out of search engines: an unlisted deck, and any bare code (there are as many pages as codes). */
  noindex: boolean;
  /** Each deck rule the deck breaks against the catalogue today (legality's messages); none when it is legal. */
  issues: string[];
  /** The names of its cards of the Reserve pool (contract §11.5): none when ranked play takes it (or it is not legal for other reasons and has none). */
  reserved: string[];
  /** What the deck is built around, by name: its key components, else its guide's core cards. */
  keyCards: string[];
  /** The language its card names are in (contract §10.1; the owner's text never changes). */
  language: string;
  /** The public decks of its main nation its cards' `played` shares are of; null when not asked or none. */
  playedOver: number | null;
}

/** A sheet's cards, curve, types and issues: what a deck code alone says, against the catalogue (and the library, where asked). */
function cardsOf(deck: Deck, catalogue: Catalogue, language: string, played?: Played) {
  const over = played && played.decks > 0 ? played.decks : null;
  const playedShare = (id: string) => (over === null ? null : (played?.cards.get(id)?.decks ?? 0) / over);
  const nameOf = (id: string) => {
    const card = catalogue.get(id);
    return card ? cardName(card, language) : id;
  };
  // The rules of §1 with each card's failure on the card (its id as the path), the deck's own on ''.
  const details = checkDeck(deck, catalogue, { pathForCard: (id) => id, deckPath: '' });
  const flagged = new Set(details.map((d) => d.path));
  const byName = (a: SheetCard, b: SheetCard) => a.name.localeCompare(b.name, language) || a.card_id.localeCompare(b.card_id);
  const groups = new Map<number | null, SheetCard[]>();
  const types = new Map<DeckType, number>(DECK_TYPES.map((t) => [t, 0]));
  // The Reserve pool's cards by name, in the code's order (the page's "Not for ranked play" list).
  const reserved: string[] = [];
  for (const { card_id, count } of deck.cards) {
    const card = catalogue.get(card_id);
    const kredits = card ? card.kredits : null;
    const group = groups.get(kredits) ?? [];
    const ally = card !== undefined && countsAs(card, deck.main, deck.ally) === deck.ally;
    const shown: SheetCard = {
      card_id,
      name: nameOf(card_id),
      count,
      ally,
      flagged: flagged.has(card_id),
      reserved: card?.reserved === true,
      type: card?.type ?? null,
      rarity: card?.rarity ?? null,
      played: playedShare(card_id),
    };
    group.push(shown);
    if (shown.reserved) reserved.push(shown.name);
    groups.set(kredits, group);
    if (card && card.type !== 'headquarters') types.set(card.type, (types.get(card.type) ?? 0) + count);
  }
  const ordered = [...groups]
    .sort(([a], [b]) => (a ?? Number.POSITIVE_INFINITY) - (b ?? Number.POSITIVE_INFINITY))
    .map(([kredits, list]) => ({ kredits, count: list.reduce((n, c) => n + c.count, 0), cards: list.sort(byName) }));
  const costs = ordered.flatMap((g) => (g.kredits === null ? [] : [g.kredits]));
  const lowest = Math.min(...costs, costs.length ? Number.POSITIVE_INFINITY : 0);
  const highest = Math.max(...costs, lowest);
  const curve = Array.from({ length: highest - lowest + 1 }, (_, i) => ({
    kredits: lowest + i,
    count: ordered.find((g) => g.kredits === lowest + i)?.count ?? 0,
  }));
  return {
    nameOf,
    main: factionName(deck.main, language),
    ally: factionName(deck.ally, language),
    cardCount: deck.cards.reduce((n, c) => n + c.count, 0),
    groups: ordered,
    curve,
    types: [...types].map(([type, count]) => ({ type, count })),
    issues: details.map((d) => d.message),
    reserved,
    language,
    playedOver: over,
  };
}

export function deckSheet(deck: StoredDeck, catalogue: Catalogue, language = DEFAULT_LANGUAGE, played?: Played): DeckSheet {
  const parsed = parsedCode(deck.deck_code).deck;
  const { nameOf, ...cards } = cardsOf(parsed, catalogue, language, played);
  const archive = deck.archive;
  const reasoned = (items: readonly { card_id: string; reason?: string | null; replaces_card_id?: string }[] | undefined) =>
    (items ?? []).map((i) => ({
      name: nameOf(i.card_id),
      reason: i.reason ?? '',
      ...(i.replaces_card_id ? { replaces: nameOf(i.replaces_card_id) } : {}),
    }));
  const otkItems = archive.chart_settings?.otkConfig.items ?? [];
  const keyComponents = archive.key_components?.enabled ? reasoned(archive.key_components.items) : [];
  return {
    ...cards,
    slug: deck.share_slug,
    name: deck.name,
    archetype: deck.archetype?.name ?? null,
    author: deck.author_name,
    code: deck.deck_code,
    tags: deck.tags,
    system: deck.guide?.system ?? '',
    description: deck.guide?.description ?? '',
    keyComponents,
    alternatives: archive.alternatives?.enabled ? reasoned(archive.alternatives.items) : [],
    otk: otkChart(otkItems, parsed.cards).map((line) => ({
      label: line.label ?? line.card_ids.map(nameOf).join(' + '),
      required: line.required,
      pool_copies: line.pool_copies,
      by_draws: line.by_draws,
    })),
    noindex: deck.visibility === 'unlisted',
    keyCards: keyComponents.length > 0 ? keyComponents.map((k) => k.name) : (deck.guide?.core_cards ?? []).map(nameOf),
  };
}

/** The sheet of a bare deck code (contract §10.2): titled by its factions' names, with no owner's text. */
export function codeSheet(deck: Deck, catalogue: Catalogue, language = DEFAULT_LANGUAGE): DeckSheet {
  const { nameOf: _, ...cards } = cardsOf(deck, catalogue, language);
  return {
    ...cards,
    slug: null,
    name: `${cards.main} / ${cards.ally}`,
    archetype: null,
    author: null,
    code: encodeDeckCode(deck),
    tags: [],
    system: '',
    description: '',
    keyComponents: [],
    alternatives: [],
    otk: [],
    noindex: true,
    keyCards: [],
  };
}

/** A kredit group's heading: "1 kredit · 4", "3 kredits · 8", or the cards the catalogue no longer has. */
export const groupHeading = (g: Pick<KreditGroup, 'kredits' | 'count'>, language: string): string => {
  const labels = labelsFor(language);
  return g.kredits === null ? `${labels.notInCatalogue} · ${g.count}` : labels.kreditGroup(g.kredits, g.count);
};
