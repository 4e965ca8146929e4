/**
 * What a deck code says against the catalogue (contract §10.2), pure: its factions, every card with its
 * name in the language asked, kredits, type, rarity, faction and copies (by kredits, then name; a card
 * the catalogue does not know last, by id, with nulls), its stats and its legality (§8.6), and its archetype by the
 * rules given (§13.3).
 */
import { archetypeAnswer, type Rules } from './archetype-of.ts';
import { type CardType, cardName, type Rarity } from './card.ts';
import type { Catalogue } from './catalogue.ts';
import { type Deck, encodeDeckCode } from './deck-code.ts';
import { factionName } from './faction-names.ts';
import type { CardFaction } from './factions.ts';
import { deckStats, legality } from './insight.ts';
import { urlCodeOf } from './url-code.ts';

export interface CodeCard {
  card_id: string;
  name: string | null;
  kredits: number | null;
  type: CardType | null;
  rarity: Rarity | null;
  faction: CardFaction | null;
  count: number;
}

export function codeFacts(deck: Deck, catalogue: Catalogue, language: string, archetypes: Rules | undefined) {
  const cards: CodeCard[] = deck.cards.map(({ card_id, count }) => {
    const card = catalogue.get(card_id);
    return card
      ? {
          card_id,
          name: cardName(card, language),
          kredits: card.kredits,
          type: card.type,
          rarity: card.rarity,
          faction: card.faction,
          count,
        }
      : { card_id, name: null, kredits: null, type: null, rarity: null, faction: null, count };
  });
  const last = Number.POSITIVE_INFINITY;
  cards.sort(
    (a, b) =>
      (a.kredits ?? last) - (b.kredits ?? last) ||
      (a.name ?? '').localeCompare(b.name ?? '', language) ||
      (a.card_id < b.card_id ? -1 : a.card_id > b.card_id ? 1 : 0),
  );
  return {
    deck_code: encodeDeckCode(deck),
    url_code: urlCodeOf(deck),
    main_faction: deck.main,
    ally_faction: deck.ally,
    name: `${factionName(deck.main, language)} / ${factionName(deck.ally, language)}`,
    cards,
    stats: deckStats(deck, catalogue),
    legality: legality(deck, catalogue),
    archetype: archetypeAnswer(archetypes, deck, language),
  };
}
