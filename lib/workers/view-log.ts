/**
 * A view log changed (lib/store/view-log.ts): the batches its changes added are added to their decks' counts —
 * a window's batches with one UpdateItem a deck — then taken out of the log. Each count keeps the ordinal of
 * the last batch of its group it holds, so a window handled again adds nothing twice.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { dayOf } from '#rules/week.ts';
import { atMost } from '#store/at-most.ts';
import { BATCH_PREFIX, VIEW_LOG } from '#store/items/view-log.ts';
import { addBatchesToCount, dropFromLog, type LoggedBatch } from '#store/view-log.ts';
import { batchHandler, changesOf, type Image, itemName, type Work, workByItem } from './batch.ts';

/** The batches a log's changes of a batch added (each change its old and new image, in order), in ordinal order. */
export function loggedBatches(changes: readonly [Image | undefined, Image | undefined][]): LoggedBatch[] {
  const batches: LoggedBatch[] = [];
  for (const [before, after] of changes) {
    if (!after) continue;
    for (const name of Object.keys(after)) {
      if (!name.startsWith(BATCH_PREFIX) || (before && Object.hasOwn(before, name))) continue;
      // A batch recorded before days were kept holds a number a deck: its views under no day.
      const views = Object.entries(after[name] as Record<string, number | Record<string, number>>).map(([slug, v]) => [
        slug,
        typeof v === 'number' ? { '': v } : Object.fromEntries(Object.entries(v).map(([day, n]) => [day, Number(n)])),
      ]);
      batches.push({ id: name.slice(BATCH_PREFIX.length), ordinal: Number(after.n), views: Object.fromEntries(views) });
    }
  }
  return batches.sort((a, b) => a.ordinal - b.ordinal);
}

/** Count writes run at once. */
const COUNTS_AT_ONCE = 8;

/**
 * Adds a log's new batches to their decks' counts (once each; their views of the week ending `today` in its
 * days' slots), then takes them out of the log. Answers the count writes.
 */
export async function viewLogMoved(group: number, batches: readonly LoggedBatch[], today = dayOf(Date.now())): Promise<number> {
  let writes = 0;
  const slugs = new Set(batches.flatMap((b) => Object.keys(b.views)));
  await atMost(COUNTS_AT_ONCE, slugs, async (slug) => {
    // Read before adding: `writes += await …` would add to the value read before the await (lost beside the others).
    const written = await addBatchesToCount(slug, batches, today);
    writes += written;
  });
  await dropFromLog(
    group,
    batches.map((b) => b.id),
  );
  return writes;
}

/** The work a batch of the view logs' changes asks for: each log's new batches, added to their decks' counts. */
export function workOf(records: readonly DynamoDBRecord[]): Work[] {
  return workByItem(records, ({ keys, sequence, records: itemRecords }) => {
    const pk = String(keys.pk);
    if (!VIEW_LOG.owns(pk)) return [];
    const group = Number(pk.slice(VIEW_LOG.prefix.length));
    const batches = loggedBatches(changesOf(itemRecords));
    return batches.length > 0
      ? [{ first: sequence, what: itemName(keys), run: async () => void (await viewLogMoved(group, batches)) }]
      : [];
  });
}

/** The view log's worker's handler (functions/view-log-worker.ts): a window of the logs' changes at a time. */
export const handleViewLog = batchHandler('viewLog', workOf);
