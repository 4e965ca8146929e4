/**
 * Formats players run events in (contract §12.3), pure: each a rule over a deck's cards — pauper (no special or elite
 * card), singleton (one copy of each card), monodeck (no ally card). A deck is legal in a format when it is valid and
 * no card breaks the rule (insight.ts `legality`; search's `format` filter: `legalIn`).
 */
import type { Card } from './card.ts';
import type { Catalogue } from './catalogue.ts';
import type { Deck } from './deck-code.ts';
import { checkDeck, countsAs } from './deck-rules.ts';

export const FORMATS = ['pauper', 'singleton', 'monodeck'] as const;
export type Format = (typeof FORMATS)[number];
export interface FormatIssue {
  card_id: string;
  message: string;
}
export interface FormatLegality {
  legal: boolean;
  issues: FormatIssue[];
}

/** Each format's rule: the deck's cards that break it, and why (English, as the deck rules' messages are). */
const FORMAT_RULES: Record<Format, (count: number, card: Card | undefined, deck: Deck) => string | undefined> = {
  // Pauper: no special or elite card.
  pauper: (_count, card) => (card && (card.rarity === 'special' || card.rarity === 'elite') ? `${card.name} is ${card.rarity}` : undefined),
  // Singleton: one copy of each card.
  singleton: (count, card) => (count > 1 ? `${count} copies of ${card?.name ?? 'the card'}; one of each card` : undefined),
  // Monodeck: no ally card (as the ally limit counts them: its own and its exiles').
  monodeck: (_count, card, deck) =>
    card && countsAs(card, deck.main, deck.ally) === deck.ally ? `${card.name} is an ally card` : undefined,
};

/** The deck's cards that break the format's rule, and why, in the code's order. */
export const formatIssues = (deck: Deck, format: Format, catalogue: Catalogue): FormatIssue[] =>
  deck.cards.flatMap(({ card_id, count }) => {
    const message = FORMAT_RULES[format](count, catalogue.get(card_id), deck);
    return message ? [{ card_id, message }] : [];
  });

/** Whether the deck is legal in the format: valid, and no card breaks its rule. */
export const legalIn = (deck: Deck, format: Format, catalogue: Catalogue): boolean =>
  formatIssues(deck, format, catalogue).length === 0 && checkDeck(deck, catalogue).length === 0;
