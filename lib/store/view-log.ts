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
 * Each view also counts in the bucket's slot of the UTC day it was served (lib/rules/week.ts), in the
 * same update, on condition that the slot holds that day; a slot that holds an older day is opened for
 * it first (its map replaced by one of the day alone: openSlot, which the daily opener does for every
 * bucket at midnight, UTC). A view of a day already out of the week counts in the total only.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { inWeek, slotOf } from '#rules/week.ts';
import { documentClient, transact, unlessConditionFailed } from './client.ts';
import { bucketKeyAt, bucketOf, SLOT_DAY, SLOT_NAMES, SLOTS, slotDays, slotMap, slotPath, viewAttribute } from './items/view-bucket.ts';
import { BATCH_PREFIX, groupOf, viewBatchKey, viewLogKey } from './items/view-log.ts';
import { DECKS, tableName } from './tables.ts';

/** How long a batch's marker is kept: past Lambda's longest retry of an asynchronous event (6 hours). */
const MARKER_TTL_S = 24 * 3600;
/**
 * Most counts one bucket update adds: a deck's total is one (`#a12 :n12,`), each of its days one more
 * (`#w3.#k12 = if_not_exists(#w3.#k12, :z) + :m40,`); an update expression is at most 4 KB
 * (test/unit/changes.test.ts writes the longest).
 */
export const COUNTS_PER_UPDATE = 80;
const table = () => tableName(DECKS);

/** Views of one batch, by share slug, then by the UTC day they were served. */
export type ViewCounts = ReadonlyMap<string, ReadonlyMap<number, number>>;

/** Records a batch of views (step 1): 'recorded', or 'already' when this batch was recorded before. */
export async function recordViewBatch(id: string, counts: ViewCounts): Promise<'recorded' | 'already'> {
  const byGroup = new Map<number, Map<string, Record<string, number>>>();
  for (const [slug, days] of counts) {
    const group = groupOf(bucketOf(slug));
    const of = byGroup.get(group) ?? new Map<string, Record<string, number>>();
    of.set(slug, Object.fromEntries(days));
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

/**
 * A batch as its log holds it: its ordinal in the log, and its views by share slug, each by the UTC day
 * they were served (a batch recorded before days were kept: its views under no day).
 */
export interface LoggedBatch {
  id: string;
  ordinal: number;
  views: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** What a bucket holds of the view log (read consistently): its ordinal (0: none), and its slots' days. */
async function bucketState(bucket: number): Promise<{ applied: number; days: (number | undefined)[] }> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: bucketKeyAt(bucket),
      ConsistentRead: true,
      ProjectionExpression: ['applied', ...SLOTS.map((slot) => slotPath(slot))].join(', '),
      ExpressionAttributeNames: SLOT_NAMES,
    }),
  );
  return { applied: Number(Item?.applied ?? 0), days: slotDays(Item) };
}

/**
 * Opens a bucket's slot for `day`, if it holds an older day (or none): emptied, and the day set — one
 * write, however many decks the slot held. Answers the items written (0 or 1).
 */
export async function openSlot(bucket: number, day: number): Promise<number> {
  const slot = slotOf(day);
  const done = await unlessConditionFailed(
    documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: bucketKeyAt(bucket),
        UpdateExpression: 'SET #w = :opened ADD #rev :one',
        ConditionExpression: 'attribute_not_exists(#w.#day) OR #w.#day < :day',
        ExpressionAttributeNames: { '#w': slotMap(slot), '#day': SLOT_DAY, '#rev': 'rev' },
        ExpressionAttributeValues: { ':opened': { [SLOT_DAY]: day }, ':day': day, ':one': 1 },
      }),
    ),
  );
  return done ? 1 : 0;
}

/** A bucket's share of a run: each deck's total, and its views by day. */
function countsIn(bucket: number, run: readonly LoggedBatch[]) {
  const totals = new Map<string, number>();
  const days = new Map<number, Map<string, number>>();
  for (const b of run)
    for (const [slug, byDay] of Object.entries(b.views)) {
      if (bucketOf(slug) !== bucket) continue;
      for (const [day, n] of Object.entries(byDay)) {
        totals.set(slug, (totals.get(slug) ?? 0) + n);
        if (day === '') continue;
        const of = days.get(Number(day)) ?? new Map<string, number>();
        days.set(Number(day), of.set(slug, (of.get(slug) ?? 0) + n));
      }
    }
  return { totals, days };
}

/** The update that adds a bucket's counts: totals with ADD, days into their slots' maps. */
export function bucketUpdate(totals: ReadonlyMap<string, number>, days: ReadonlyMap<number, ReadonlyMap<string, number>>) {
  const slugs = [...totals.keys()];
  const index = new Map(slugs.map((s, i) => [s, i]));
  const names: Record<string, string> = { '#applied': 'applied', '#rev': 'rev' };
  const values: Record<string, unknown> = { ':one': 1 };
  const sets = ['#applied = :last'];
  const conditions: string[] = [];
  slugs.forEach((s, i) => {
    names[`#a${i}`] = viewAttribute(s);
    values[`:n${i}`] = totals.get(s);
  });
  let m = 0;
  for (const [day, of] of days) {
    const slot = slotOf(day);
    names[`#w${slot}`] = slotMap(slot);
    names['#day'] = SLOT_DAY;
    values[`:d${slot}`] = day;
    conditions.push(`${slotPath(slot)} = :d${slot}`);
    for (const [s, n] of of) {
      const i = index.get(s) as number;
      names[`#k${i}`] = s;
      values[`:m${m}`] = n;
      sets.push(`#w${slot}.#k${i} = if_not_exists(#w${slot}.#k${i}, :z) + :m${m++}`);
    }
  }
  if (m > 0) values[':z'] = 0;
  return {
    UpdateExpression: `ADD ${[...slugs.map((_, i) => `#a${i} :n${i}`), '#rev :one'].join(', ')} SET ${sets.join(', ')}`,
    slotConditions: conditions,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * Adds a run of one group's batches (in ordinal order, at most COUNTS_PER_UPDATE counts of the bucket) to
 * one bucket: once, whatever part of the run the bucket already holds; each view of a day of the week
 * ending `today` in that day's slot too. Answers the items written.
 */
export async function addToBucket(bucket: number, run: readonly LoggedBatch[], today: number): Promise<number> {
  let held: { applied: number; days: (number | undefined)[] } | undefined; // unknown until a condition fails
  let writes = 0;
  for (let tries = 0; tries < 5; tries++) {
    const rest = run.filter((b) => held === undefined || b.ordinal > held.applied);
    const { totals, days } = countsIn(bucket, rest);
    if (totals.size === 0) return writes;
    for (const day of days.keys()) {
      if (!inWeek(day, today)) days.delete(day);
      else if (held) {
        // A slot that holds an older day is opened for this one; one that holds a later day is not this day's.
        const slot = slotOf(day);
        const at = held.days[slot];
        if (at === undefined || at < day) {
          writes += await openSlot(bucket, day);
          held.days[slot] = day;
        } else if (at > day) days.delete(day);
      }
    }
    const last = (rest.at(-1) as LoggedBatch).ordinal;
    const update = bucketUpdate(totals, days);
    const applied =
      held === undefined
        ? 'attribute_not_exists(#applied) OR #applied < :first'
        : held.applied === 0
          ? 'attribute_not_exists(#applied)'
          : '#applied = :held';
    const done = await unlessConditionFailed(
      documentClient().send(
        new UpdateCommand({
          TableName: table(),
          Key: bucketKeyAt(bucket),
          UpdateExpression: update.UpdateExpression,
          ConditionExpression: [`(${applied})`, ...update.slotConditions].join(' AND '),
          ExpressionAttributeNames: update.ExpressionAttributeNames,
          ExpressionAttributeValues: {
            ...update.ExpressionAttributeValues,
            ':last': last,
            ...(held === undefined ? { ':first': (rest[0] as LoggedBatch).ordinal } : held.applied === 0 ? {} : { ':held': held.applied }),
          },
        }),
      ),
    );
    if (done) return writes + 1;
    held = await bucketState(bucket);
  }
  throw new Error(`views not added to bucket ${bucket}: its ordinal or its slots kept moving`);
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
