/** The card model (contract §1). */
import type { CardFaction, FactionId } from './factions.ts';

/** English: every card's `name`, and the language of an answer when nothing else matches (languages.ts). */
export const DEFAULT_LANGUAGE = 'en';

export const CARD_TYPES = ['infantry', 'tank', 'artillery', 'fighter', 'bomber', 'order', 'countermeasure', 'headquarters'] as const;
export const RARITIES = ['standard', 'limited', 'special', 'elite'] as const;
/** A catalogue card id (the 2-character deck-code ids, and longer ids of cards no code holds). */
export const CARD_ID = /^[0-9A-Za-z_.:-]{1,64}$/;
export type CardType = (typeof CARD_TYPES)[number];
export type Rarity = (typeof RARITIES)[number];

export interface Card {
  card_id: string;
  name: string;
  faction: CardFaction;
  type: CardType;
  rarity: Rarity;
  kredits: number;
  set: string;
  /** Spawned by other cards; never deckable. */
  derived: boolean;
  /** The card may also serve decks of this faction (see the deck rules). */
  exile: FactionId | null;
  /**
   * In the Reserve pool (the catalogue's `reserved`): playable, but not in a ranked deck (contract §11.5;
   * support.kards.com "Reserve Pool", rotating twice a year). Absent when it is not.
   */
  reserved?: boolean;
  /** Its name by language (rules/languages.ts), where the catalogue has more than English; `name` is the English one. */
  names?: Readonly<Record<string, string>>;
}

/** A card's name in a language: its own there, else its English name (`name`: it is the English one, whatever `names.en` says). */
export const cardName = (card: Pick<Card, 'name' | 'names'>, language: string): string =>
  (language !== DEFAULT_LANGUAGE && card.names?.[language]) || card.name;
