/**
 * The catalogue kept current without a deploy (contract §11.5): daily (an EventBridge schedule: lib/workers/
 * CATALOGUE_REFRESH), and on demand (`deckctl catalogue refresh [--aws]`), the official catalogue is fetched as
 * `deckctl catalogue fetch` does (lib/catalogue/fetch.ts: every page, every language), validated as the service
 * loads a catalogue (parseCatalogue), compiled as a deploy compiles it, and published (lib/store/catalogue-
 * publish.ts) only when it is another than the one the functions use — the published version, else the one they
 * ship. A fetch or a validation that fails publishes nothing: the error says why, the functions keep theirs.
 * The functions see a new version within CATALOGUE_CHECK_SECONDS (lib/catalogue/current.ts).
 */
import { fetchNodes, officialEndpoint } from '#catalogue/fetch.ts';
import { catalogueTag } from '#catalogue/load.ts';
import { logger } from '#logger';
import { compileCatalogue, parseCatalogue } from '#rules/catalogue.ts';
import { catalogueOf } from '#rules/kards-graphql.ts';
import { publishCatalogue, publishedCatalogue } from '#store/catalogue-publish.ts';
import { versionOf } from '#store/catalogue-read.ts';

export interface Refreshed {
  /** Whether a new version was published. */
  published: boolean;
  /** The version the functions use now. */
  version: string;
  /** The one they used before. */
  previous: string;
  cards: number;
  languages: string[];
}

export async function refreshCatalogue({ endpoint = officialEndpoint() }: { endpoint?: string } = {}): Promise<Refreshed> {
  const fetched = catalogueOf(await fetchNodes({ endpoint }));
  // As the service loads a catalogue (a card the rules cannot hold is refused here, not in a function).
  const text = compileCatalogue(parseCatalogue(fetched.cards));
  const version = versionOf(text);
  const now = await publishedCatalogue();
  const previous = now?.version ?? catalogueTag();
  const facts = { cards: fetched.cards.length, languages: fetched.languages };
  if (version === previous) {
    logger.info('catalogue: unchanged', { version, ...facts });
    return { published: false, version, previous, ...facts };
  }
  const written = await publishCatalogue(text, facts, now?.version);
  if (!written) throw new Error(`catalogue: another version was published meanwhile (over ${previous}); ${version} was not`);
  logger.info('catalogue: published', { version, previous, ...facts, bytes: written.bytes, parts: written.parts });
  return { published: true, version, previous, ...facts };
}

/** The scheduled function's handler (an EventBridge scheduled event: nothing of it is read). */
export const refreshOnSchedule = async (): Promise<Refreshed> => refreshCatalogue();
