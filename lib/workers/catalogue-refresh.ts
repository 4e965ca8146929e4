/**
 * The catalogue kept current without a deploy (contract §11.5): daily (an EventBridge schedule: lib/workers/
 * CATALOGUE_REFRESH), and on demand (`deckctl catalogue refresh [--aws]`), the official catalogue is fetched as
 * `deckctl catalogue fetch` does (lib/catalogue/fetch.ts: every page, every language), validated as the service
 * loads a catalogue (parseCatalogue), compiled as a deploy compiles it, and published
 * (lib/store/catalogue-publish.ts) only when it is another than the one the functions use — the published version, else the one they
 * ship. A fetch or a validation that fails publishes nothing: the error says why, the functions keep theirs.
 * The functions see a new version within CATALOGUE_CHECK_SECONDS (lib/catalogue/load.ts).
 * A version that drops cards the one in use has (contract §12.5) is held, not published: the dropped cards named in
 * the log and in the error the refresh ends with (the scheduled function fails: the FunctionErrors alarm, and after
 * Lambda's two retries the discarded-changes queue's). A later refresh — another run: a retry of the same scheduled
 * run carries its event id — that drops the same cards from the same version agrees, and publishes; an operator who
 * knows the removal is real publishes at once with `deckctl catalogue refresh --allow-removals`.
 */
import { randomUUID } from 'node:crypto';
import { fetchNodes, officialEndpoint } from '#catalogue/fetch.ts';
import { catalogue, catalogueTag } from '#catalogue/load.ts';
import { logger } from '#logger';
import { type Catalogue, compileCatalogue, parseCatalogue } from '#rules/catalogue.ts';
import { catalogueOf } from '#rules/kards-graphql.ts';
import { heldCatalogue, holdCatalogue, publishCatalogue, publishedCatalogue, publishedText } from '#store/catalogue-publish.ts';
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

/** A version that drops cards the one in use has, held until a second refresh agrees (the message names them). */
export class RemovalsHeld extends Error {
  override readonly name = 'RemovalsHeld';
}

export interface RefreshOptions {
  endpoint?: string;
  /** Which refresh this is (a scheduled run's event id; a new one for each `deckctl` run). */
  run?: string;
  /** Publish a version that drops cards without waiting for a second refresh (`--allow-removals`). */
  allowRemovals?: boolean;
}

/** Whether two sorted lists of ids are the same. */
const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

export async function refreshCatalogue({
  endpoint = officialEndpoint(),
  run = randomUUID(),
  allowRemovals = false,
}: RefreshOptions = {}): Promise<Refreshed> {
  const fetched = catalogueOf(await fetchNodes({ endpoint }));
  // As the service loads a catalogue (a card the rules cannot hold is refused here, not in a function).
  const parsed = parseCatalogue(fetched.cards);
  const text = compileCatalogue(parsed);
  const version = versionOf(text);
  const now = await publishedCatalogue();
  const previous = now?.version ?? catalogueTag();
  const facts = { cards: fetched.cards.length, languages: fetched.languages };
  if (version === previous) {
    logger.info('catalogue: unchanged', { version, ...facts });
    return { published: false, version, previous, ...facts };
  }
  // The catalogue in use: the published one, else the one the functions ship.
  const inUse: Catalogue = now ? parseCatalogue(JSON.parse(await publishedText(now))) : catalogue();
  const dropped = inUse.cards.filter((c) => !parsed.get(c.card_id));
  if (dropped.length > 0) {
    const removed = dropped.map((c) => c.card_id).sort();
    const named = dropped.map((c) => `${c.card_id} ${c.name}`);
    const held = await heldCatalogue();
    const agreed = held !== undefined && held.over === previous && held.run !== run && same(held.removed, removed);
    if (!allowRemovals && !agreed) {
      await holdCatalogue({ over: previous, version, removed, run, held_at: new Date().toISOString() });
      logger.error('catalogue: held, it drops cards the one in use has', { version, previous, dropped: named, ...facts });
      // The log line names every one; the error the first 20 (an error message is read whole, in an alarm's e-mail too).
      const shown = named.length > 20 ? [...named.slice(0, 20), `and ${named.length - 20} more: the log names them`] : named;
      throw new RemovalsHeld(
        `catalogue ${version} drops ${dropped.length} card(s) that ${previous} has (${shown.join('; ')}): held until a second refresh agrees, or deckctl catalogue refresh --allow-removals`,
      );
    }
    logger.warn(`catalogue: publishing a version that drops cards (${allowRemovals ? 'allowed' : 'a second refresh agrees'})`, {
      version,
      previous,
      dropped: named,
    });
  }
  const written = await publishCatalogue(text, facts, now);
  if (!written) throw new Error(`catalogue: another version was published meanwhile (over ${previous}); ${version} was not`);
  logger.info('catalogue: published', { version, previous, ...facts, bytes: written.bytes, parts: written.parts });
  return { published: true, version, previous, ...facts };
}

/** The scheduled function's handler (an EventBridge scheduled event: its id names the run, the same in Lambda's retries of it). */
export const refreshOnSchedule = async (event?: { id?: unknown }): Promise<Refreshed> =>
  refreshCatalogue(typeof event?.id === 'string' ? { run: event.id } : {});
