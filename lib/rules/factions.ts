/** KARDS factions as the API names them (contract §1). */

export const FACTIONS = [
  { id: 'germany', digit: '1', name: 'Germany', main: true },
  { id: 'britain', digit: '2', name: 'Britain', main: true },
  { id: 'japan', digit: '3', name: 'Japan', main: true },
  { id: 'soviet', digit: '4', name: 'Soviet Union', main: true },
  { id: 'usa', digit: '5', name: 'United States', main: true },
  { id: 'france', digit: '6', name: 'France', main: false },
  { id: 'italy', digit: '7', name: 'Italy', main: false },
  { id: 'poland', digit: '8', name: 'Poland', main: false },
  { id: 'finland', digit: '9', name: 'Finland', main: false },
  { id: 'anzac', digit: 'a', name: 'ANZAC', main: false },
] as const;

export type Faction = (typeof FACTIONS)[number];
export type FactionId = Faction['id'];
/** A card's faction: a deck faction, or neutral (playable in any deck, never counted as the ally). */
export type CardFaction = FactionId | 'neutral';

export const FACTION_IDS: readonly FactionId[] = FACTIONS.map((f) => f.id);
export const MAIN_FACTION_IDS: readonly FactionId[] = FACTIONS.filter((f) => f.main).map((f) => f.id);

const byId = new Map<string, Faction>(FACTIONS.map((f) => [f.id, f]));
const byDigit = new Map<string, Faction>(FACTIONS.map((f) => [f.digit, f]));

export const factionById = (id: string): Faction | undefined => byId.get(id);
export const factionByDigit = (digit: string): Faction | undefined => byDigit.get(digit);

/** The derived deck name: "<main display name> / <ally display name>". */
export const deckName = (main: FactionId, ally: FactionId): string => `${byId.get(main)?.name} / ${byId.get(ally)?.name}`;

/** Faction ids by the nation names of the kards.com card API. */
export const FACTION_BY_NATION: Readonly<Record<string, CardFaction>> = {
  Germany: 'germany',
  Britain: 'britain',
  Japan: 'japan',
  Soviet: 'soviet',
  USA: 'usa',
  France: 'france',
  Italy: 'italy',
  Poland: 'poland',
  Finland: 'finland',
  ANZAC: 'anzac',
  Anzac: 'anzac',
  Neutral: 'neutral',
};
