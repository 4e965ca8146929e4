/**
 * Views on their way from the API's access log to the decks' counts (view-counts.ts), counted exactly once
 * however often a step is retried (contract §9.5; docs/data-model.md):
 *  1. The access log's lines of shared reads answered 200 reach the countViews function in batches (a
 *     CloudWatch Logs subscription; locally infra/local/access-log.ts). A batch is logged in one
 *     transaction: a marker of the batch — its id is a hash of its log events' ids, so Lambda's retry of
 *     the same batch has the same id — put only if absent (a retry writes nothing), and the batch's
 *     counts in the view log of each group of decks it touches, under an attribute of its own, the log's
 *     ordinal `n` counted up by one (the items: items/view-log.ts).
 *  2. The view-log worker follows each log's changes — one item's changes, which DynamoDB streams in
 *     order — a window at a time: each deck of the window's batches gets them in one UpdateItem of its count,
 *     which keeps the ordinal of the last batch of its group it holds (`applied`), on condition that it still
 *     holds the ordinal read: a retried window adds only the batches after it. The batches are then taken out
 *     of the log.
 * Each view also counts in its deck's slot of the UTC day it was served (lib/rules/week.ts), in the same
 * update, on condition that the slot holds that day or the older one read; a view of a day already out of
 * the week counts in the total only.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, transact } from './client.ts';
import type { StoredCount } from './items/view-count.ts';
import { BATCH_PREFIX, groupOf, type LoggedBatch, viewBatchKey, viewLogKey } from './items/view-log.ts';
import { DECKS, tableName } from './tables.ts';
import { addToCount } from './view-counts.ts';

/** How long a batch's marker is kept: past Lambda's longest retry of an asynchronous event (6 hours). */
const MARKER_TTL_S = 24 * 3600;
const table = () => tableName(DECKS);

/** Views of one batch, by share slug, then by the UTC day they were served. */
export type ViewCounts = ReadonlyMap<string, ReadonlyMap<number, number>>;

/** Logs a batch of views (step 1): 'logged', or 'already' when this batch was logged before. */
export async function logViewBatch(id: string, counts: ViewCounts): Promise<'logged' | 'already'> {
  const byGroup = new Map<number, Map<string, Record<string, number>>>();
  for (const [slug, days] of counts) {
    const group = groupOf(slug);
    const of = byGroup.get(group) ?? new Map<string, Record<string, number>>();
    of.set(slug, Object.fromEntries(days));
    byGroup.set(group, of);
  }
  if (byGroup.size === 0) return 'logged';
  const outcome = await transact([
    {
      Put: {
        TableName: table(),
        Item: { ...viewBatchKey(id), expires_at: Math.floor(Date.now() / 1000) + MARKER_TTL_S },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...[...byGroup].map(([group, views]) => ({
      Update: {
        TableName: table(),
        Key: viewLogKey(group),
        UpdateExpression: 'SET #b = :views ADD #n :one',
        ExpressionAttributeNames: { '#b': `${BATCH_PREFIX}${id}`, '#n': 'n' },
        ExpressionAttributeValues: { ':views': Object.fromEntries(views), ':one': 1 },
      },
    })),
  ]);
  if (outcome === 'failed') return 'already';
  if (outcome === 'conflict') throw new Error('the view batch was not logged: its items stayed held by other transactions');
  return 'logged';
}

/**
 * Adds a log's batches (one group's, in ordinal order) to one deck's count: once, whatever part of them the
 * count already holds; each view of a day of the week ending `today` in that day's slot too. Answers the items
 * written (0 or 1) and the count as it stands.
 */
export function addBatchesToCount(
  slug: string,
  batches: readonly LoggedBatch[],
  today: number,
): Promise<{ written: number; count: StoredCount }> {
  return addToCount(
    slug,
    (held) => {
      const rest = batches.filter((b) => b.ordinal > held.applied && b.views[slug] !== undefined);
      if (rest.length === 0) return undefined;
      const byDay = new Map<number, number>();
      let views = 0;
      for (const b of rest)
        for (const [day, n] of Object.entries(b.views[slug] ?? {})) {
          views += n;
          // A batch logged before days were kept holds its views under no day: in the total only.
          if (day !== '') byDay.set(Number(day), (byDay.get(Number(day)) ?? 0) + n);
        }
      return {
        add: { views, byDay },
        condition: held.applied === 0 ? 'attribute_not_exists(#applied) OR #applied = :held' : '#applied = :held',
        names: { '#applied': 'applied' },
        values: { ':held': held.applied },
        extra: { applied: (rest.at(-1) as LoggedBatch).ordinal },
      };
    },
    today,
  );
}

/** Takes batches that every deck's count holds out of their log. */
export async function dropFromLog(group: number, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: viewLogKey(group),
      UpdateExpression: `REMOVE ${ids.map((_, i) => `#b${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(ids.map((id, i) => [`#b${i}`, `${BATCH_PREFIX}${id}`])),
    }),
  );
}
