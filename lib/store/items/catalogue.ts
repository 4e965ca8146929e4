/**
 * The published catalogue (decks table; contract §11.5): what the scheduled refresh fetched from the game's
 * endpoint and validated (lib/workers/catalogue-refresh.ts), the functions' catalogue once they see it
 * (lib/catalogue/load.ts). The compiled catalogue (lib/rules/catalogue.ts compileCatalogue) gzipped, in
 * parts under DynamoDB's 400 KB item limit, and the pointer the functions read (small: half a read unit):
 *   pk CATALOGUE#            sk NOW     { version, parts, bytes, cards, languages, published_at }
 *   pk CATALOGUE#<version>   sk <nnn>   { data: B }   part nnn of the gzipped text (000, 001, …)
 *   pk CATALOGUE#            sk HELD    { over, version, removed, run, held_at }   a version held for the cards it
 *                                       drops (lib/workers/catalogue-refresh.ts): what a second refresh must agree on
 *   pk CATALOGUE#            sk FROM#<published_at>#<version>   { …as NOW }   each version published, from when it
 *                                       was in force (written with the pointer, in one transaction): the card pool of
 *                                       a date (contract §13.4) is the last one from before its end
 * Bounds (contract §11.1): an item holds at most PART_BYTES of the catalogue, whatever the library's size; a
 * version's parts are as many as the catalogue's size needs (the real one, 12 languages: one part).
 */
import { itemKind } from './kind.ts';

export const CATALOGUE = itemKind('CATALOGUE#');
/** The pointer to the version the functions use. */
export const catalogueNowKey = { pk: CATALOGUE.pk(''), sk: 'NOW' } as const;
/** The version a refresh held back for the cards it drops. */
export const catalogueHeldKey = { pk: CATALOGUE.pk(''), sk: 'HELD' } as const;
/** The history of the versions in force: each one's item, by when it was published (ISO times sort as they fall). */
export const CATALOGUE_FROM = 'FROM#';
export const catalogueFromKey = (now: Pick<CatalogueNow, 'published_at' | 'version'>) =>
  ({ pk: CATALOGUE.pk(''), sk: `${CATALOGUE_FROM}${now.published_at}#${now.version}` }) as const;
/** A part of a version's gzipped text. */
export const cataloguePartKey = (version: string, part: number) => ({ pk: CATALOGUE.pk(version), sk: String(part).padStart(3, '0') });
/** Most bytes of gzipped text an item holds (under the 400 KB item limit with its keys and names). */
export const PART_BYTES = 350_000;

export interface CatalogueNow {
  version: string;
  parts: number;
  bytes: number;
  cards: number;
  languages: string[];
  published_at: string;
}

export interface CatalogueHeld {
  /** The version in use the fetched one was compared with. */
  over: string;
  version: string;
  /** The card ids `over` has that `version` does not, sorted. */
  removed: string[];
  /** The refresh that held it (a schedule's event id: Lambda's retries of one run carry the same). */
  run: string;
  held_at: string;
}
