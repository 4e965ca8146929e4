/** The shapes of a deck's content: what a write produces and a store keeps (contract §3); the snapshot is derived on read. */
import type { ArchetypeAnswer } from './archetype-of.ts';
import type { CardCount } from './deck-code.ts';
import type { PlainValues } from './deck-fields.ts';
import type { FactionId } from './factions.ts';
import type { AlternativesOut, ChartSettingsOut, GuideOut, KeyComponentsOut } from './schemas.ts';

export type Guide = GuideOut;
export type KeyComponents = KeyComponentsOut;
export type Alternatives = AlternativesOut;
export type ChartSettings = ChartSettingsOut;

/** Sections may be null in decks stored long ago (requirement §2 rule 3's "old records"); the service never writes null. */
export interface Archive {
  key_components: KeyComponents | null;
  alternatives: Alternatives | null;
  chart_settings: ChartSettings | null;
}

export interface Display {
  featured_card_id: string | null;
  card_back_id: string | null;
}

/** Fields derived from the deck code and kept with it: never writable. */
export interface Derived {
  deck_code: string;
  name: string;
  main_faction: FactionId;
  ally_faction: FactionId;
}

/** What an answer shows of a code beyond them: its cards, derived on read (parsed-codes.ts), never kept. */
export interface Described extends Derived {
  cards_snapshot: CardCount[];
}

/**
 * A deck's archetype as kept with it (contract §13.3): by the rules in use when it was written (named in English; an
 * answer in a language names it there), or by cluster (the cluster job's); null when none takes it. Never writable.
 */
export type KeptArchetype = ArchetypeAnswer | null;

/** A deck's content: derived from its code, its plain fields (deck-fields.ts), its guide, archive and display. */
export interface DeckContent extends Derived, PlainValues {
  /** Absent on a deck written before archetypes were kept (`deckctl archetypes apply` writes it): none. */
  archetype?: KeptArchetype;
  guide: Guide | null;
  archive: Archive;
  display: Display;
}

export const emptyKeyComponents = (): KeyComponents => ({ enabled: false, items: [] });
export const emptyAlternatives = (): Alternatives => ({ enabled: false, items: [] });
export const emptyChartSettings = (): ChartSettings => ({ otkConfig: { items: [] } });
export const defaultArchive = (): Archive => ({
  key_components: emptyKeyComponents(),
  alternatives: emptyAlternatives(),
  chart_settings: emptyChartSettings(),
});
