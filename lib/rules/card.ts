/** The card model (contract §1). */
import type { CardFaction, FactionId } from './factions.ts';

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
}
