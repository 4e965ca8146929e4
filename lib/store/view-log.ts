/**
 * Views on their way from the API's access log to the buckets (view-buckets.ts), counted exactly once
 * however often a step is retried (contract §9.5; docs/data-model.md):
 *  1. The access log's lines of shared reads answered 200 reach the countViews function in batches (a
 *     CloudWatch Logs subscription; locally infra/local/access-log.ts). A batch is recorded in one
 *     transaction: a marker of the batch — its id is a hash of its log events' ids, so Lambda's retry of
 *     the same batch has the same id — put only if absent (a retry writes nothing), and the batch's
 *     counts in the view log of each group of buckets it touches, under an attribute of its own, the
 *     log's ordinal `n` counted up by one (the items: items/view-log.ts).
 *  2. The view-log worker follows each log's changes — one item's changes, which DynamoDB streams in
 *     order — a window at a time: the window's batches are added to their buckets with one UpdateItem a
 *     bucket, each bucket keeping the ordinal of the last batch of its group it holds (`applied`), on
 *     condition that it holds none of them. A retried window finds the condition false, reads the
 *     bucket's ordinal and adds only the batches after it. The batches are then taken out of the log.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, transact, unlessConditionFailed } from './client.ts';
import { bucketKeyAt, bucketOf, viewAttribute } from './items/view-bucket.ts';
import { BATCH_PREFIX, groupOf, viewBatchKey, viewLogKey } from './items/view-log.ts';
import { DECKS, tableName } from './tables.ts';

/** How long a batch's marker is kept: past Lambda's longest retry of an asynchronous event (6 hours). */
const MARKER_TTL_S = 24 * 3600;
/** Most decks one bucket update adds to (an update expression is at most 4 KB: `#a123 :n123, ` a deck). */
export const DECKS_PER_UPDATE = 300;
const table = () => tableName(DECKS);

/** Views of one batch, by share slug. */
export type ViewCounts = ReadonlyMap<string, number>;

/** Records a batch of views (step 1): 'recorded', or 'already' when this batch was recorded before. */
export async function recordViewBatch(id: string, counts: ViewCounts): Promise<'recorded' | 'already'> {
  const byGroup = new Map<number, Map<string, number>>();
  for (const [slug, n] of counts) {
    const group = groupOf(bucketOf(slug));
    const of = byGroup.get(group) ?? new Map<string, number>();
    of.set(slug, n);
    byGroup.set(group, of);
  }
  if (byGroup.size === 0) return 'recorded';
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
  if (outcome === 'conflict') throw new Error('the view batch was not recorded: its items stayed held by other transactions');
  return 'recorded';
}

/** A batch as its log holds it: its ordinal in the log, and its views. */
export interface LoggedBatch {
  id: string;
  ordinal: number;
  views: Readonly<Record<string, number>>;
}

/** The ordinal of the last batch of its group a bucket holds (read consistently; 0: none). */
async function appliedIn(bucket: number): Promise<number> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: bucketKeyAt(bucket), ConsistentRead: true, ProjectionExpression: 'applied' }),
  );
  return Number(Item?.applied ?? 0);
}

/**
 * Adds a run of one group's batches (in ordinal order, at most DECKS_PER_UPDATE decks of the bucket) to
 * one bucket: once, whatever part of the run the bucket already holds. Answers the items written (0 or 1).
 */
export async function addToBucket(bucket: number, run: readonly LoggedBatch[]): Promise<number> {
  let held: number | undefined; // unknown until a condition fails
  for (let tries = 0; tries < 5; tries++) {
    const rest = run.filter((b) => held === undefined || b.ordinal > held);
    const totals = new Map<string, number>();
    for (const b of rest)
      for (const [slug, n] of Object.entries(b.views)) if (bucketOf(slug) === bucket) totals.set(slug, (totals.get(slug) ?? 0) + n);
    if (totals.size === 0) return 0;
    const slugs = [...totals.keys()];
    const last = (rest.at(-1) as LoggedBatch).ordinal;
    const done = await unlessConditionFailed(
      documentClient().send(
        new UpdateCommand({
          TableName: table(),
          Key: bucketKeyAt(bucket),
          UpdateExpression: `ADD ${slugs.map((_, i) => `#a${i} :n${i}`).join(', ')} SET #applied = :last`,
          ConditionExpression:
            held === undefined
              ? 'attribute_not_exists(#applied) OR #applied < :first'
              : held === 0
                ? 'attribute_not_exists(#applied)'
                : '#applied = :held',
          ExpressionAttributeNames: { '#applied': 'applied', ...Object.fromEntries(slugs.map((s, i) => [`#a${i}`, viewAttribute(s)])) },
          ExpressionAttributeValues: {
            ':last': last,
            ...(held === undefined ? { ':first': (rest[0] as LoggedBatch).ordinal } : held === 0 ? {} : { ':held': held }),
            ...Object.fromEntries(slugs.map((s, i) => [`:n${i}`, totals.get(s)])),
          },
        }),
      ),
    );
    if (done) return 1;
    held = await appliedIn(bucket);
  }
  throw new Error(`views not added to bucket ${bucket}: its ordinal kept moving`);
}

/** Takes batches that every bucket holds out of their log. */
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
