/**
 * A view log changed (lib/store/view-log.ts): the batches its changes added are added to their decks' counts —
 * a window's batches with one UpdateItem a deck — then taken out of the log. Each count keeps the ordinal of
 * the last batch of its group it holds, so a window handled again adds nothing twice.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { logger } from '#logger';
import { dayOf } from '#rules/week.ts';
import { atMost } from '#store/at-most.ts';
import { BUILD_IN_WORKER, boardsBuilt, buildBoards, type Offered, offeredOf, offerToBoards } from '#store/boards.ts';
import { type LoggedBatch, loggedBatches, VIEW_LOG } from '#store/items/view-log.ts';
import { addBatchesToCount, dropFromLog } from '#store/view-log.ts';
import { batchHandler, changesOf, earliestOf, itemName, type Work, workByItem } from './batch.ts';

/** Count writes run at once. */
const COUNTS_AT_ONCE = 8;

/**
 * Adds a log's new batches to their decks' counts (once each; their views of the week ending `today` in its
 * days' slots), then takes them out of the log. Answers the count writes; each public deck's counts as they
 * stand go into `offers` (for the boards: the batch's closing round).
 */
export async function viewLogMoved(
  group: number,
  batches: readonly LoggedBatch[],
  today = dayOf(Date.now()),
  offers = new Map<string, Offered>(),
): Promise<number> {
  let writes = 0;
  const slugs = new Set(batches.flatMap((b) => Object.keys(b.views)));
  await atMost(COUNTS_AT_ONCE, slugs, async (slug) => {
    // Read before adding: `writes += await …` would add to the value read before the await (lost beside the others).
    const { written, count } = await addBatchesToCount(slug, batches, today);
    writes += written;
    if (count.listed) offers.set(slug, offeredOf(slug, { ...count, listed: count.listed }, today));
  });
  await dropFromLog(
    group,
    batches.map((b) => b.id),
  );
  return writes;
}

/** A library too large for this worker to build its boards (BUILD_IN_WORKER): found once a container. */
let tooLargeToBuild = false;

/**
 * The boards after a window (the batch's closing round): its decks' counts offered, once a window whatever the
 * groups. Boards not built yet are built here in a library of up to BUILD_IN_WORKER public decks (a new one);
 * in a larger one `deckctl boards build` builds them (docs/operations.md), and search reads the index alone till then.
 */
export async function boardRound(offers: ReadonlyMap<string, Offered>, today = dayOf(Date.now())): Promise<void> {
  // The boards read once a window: the offers' round reads the `all` views board with the others (whether they are built).
  if (offers.size > 0 ? (await offerToBoards([...offers.values()], [], { today })).built : await boardsBuilt()) return;
  if (tooLargeToBuild) return;
  const built = await buildBoards({ cap: BUILD_IN_WORKER, today });
  if (!built.built) {
    tooLargeToBuild = true;
    logger.warn('the boards are not built: more public decks than the view-log worker builds them for; run deckctl boards build', {
      decks: built.decks,
    });
  }
}

/** The work a batch of the view logs' changes asks for: each log's new batches, added to their decks' counts; then the boards. */
export function workOf(records: readonly DynamoDBRecord[]): Work[] {
  const offers = new Map<string, Offered>();
  const work = workByItem(records, ({ keys, sequence, records: itemRecords }) => {
    const pk = String(keys.pk);
    if (!VIEW_LOG.owns(pk)) return [];
    const group = Number(pk.slice(VIEW_LOG.prefix.length));
    const batches = loggedBatches(changesOf(itemRecords));
    return batches.length > 0
      ? [{ first: sequence, what: itemName(keys), run: async () => void (await viewLogMoved(group, batches, undefined, offers)) }]
      : [];
  });
  // A retry of the batch adds nothing twice to a count, and offers it again as it stands.
  if (work.length > 0)
    work.push({ first: earliestOf(work.map((w) => w.first)) as string, what: 'the boards', closing: true, run: () => boardRound(offers) });
  return work;
}

/** The view log's worker's handler (functions/view-log-worker.ts): a window of the logs' changes at a time. */
export const handleViewLog = batchHandler('viewLog', workOf);
