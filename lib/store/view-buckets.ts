/**
 * Views, kept many decks to an item: a deck's exact view count is an attribute of one of 64 bucket
 * items (by a hash of its share slug). Views reach the buckets from the access log, a window at a time
 * (view-log.ts): one UpdateItem per bucket a window touches, however many decks and views it holds —
 * at most 64 a window, which is what keeps a busy window's cost low (256 buckets cost 0.17 items a view
 * at 140 views a second; 64 cost 0.08: docs/data-model.md). A shared read gets a deck's count with one
 * GetItem of one attribute, billed by the bucket's size: 10,000 public decks make about 160 attributes
 * a bucket (≈ 3.5 KB: half a read unit), 100,000 about 1,600 (≈ 35 KB: 4.5 units) — where the bucket
 * count is the lever to move again (a change moves every count to a new bucket: a migration).
 * The item: items/view-bucket.ts.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dayOf, weekViews } from '#rules/week.ts';
import { documentClient, type TransactItem } from './client.ts';
import { bucketKey, SLOT_NAMES, SLOTS, slotMap, slotPath, slotsOf, viewAttribute } from './items/view-bucket.ts';
import { DECKS, tableName } from './tables.ts';

const table = () => tableName(DECKS);

/**
 * A deck's stored views, and of them its views of the week that ends `today` (lib/rules/week.ts): one
 * GetItem (eventually consistent) of its attributes in its bucket — its count, its views in each day slot
 * and the slots' days.
 */
export async function storedCounts(slug: string, today = dayOf(Date.now())): Promise<{ views: number; views_7d: number }> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: bucketKey(slug),
      ProjectionExpression: PROJECTION,
      ExpressionAttributeNames: { '#a': viewAttribute(slug), '#s': slug, ...SLOT_NAMES },
    }),
  );
  return { views: Number(Item?.[viewAttribute(slug)] ?? 0), views_7d: weekViews(slotsOf(Item, slug), today) };
}

/** What a shared read reads of a bucket: the deck's count (`#a`), its views in each slot (`#s`) and the slots' days. */
const PROJECTION = ['#a', ...SLOTS.flatMap((slot) => [slotPath(slot, '#s'), slotPath(slot)])].join(', ');

/** A deck's stored view count. */
export const storedViews = async (slug: string): Promise<number> => (await storedCounts(slug)).views;

/** The write that takes a deck's count out of its bucket. */
const forgetting = (slug: string) => ({
  TableName: table(),
  Key: bucketKey(slug),
  UpdateExpression: 'REMOVE #a',
  ExpressionAttributeNames: { '#a': viewAttribute(slug) },
});
/** Forgets a deleted deck's views (in the delete's transaction). */
export const forgetViews = (slug: string): TransactItem => ({ Update: forgetting(slug) });
/**
 * Takes a gone deck's views of the week out of the day slots that hold them (lib/workers/views.ts, when its
 * count leaves the bucket): nothing of a deleted deck stays. A slot's map, once made, is only ever replaced
 * (opened), so the paths exist.
 */
export async function forgetWeekNow(slug: string, slots: readonly number[]): Promise<void> {
  if (slots.length === 0) return;
  await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: bucketKey(slug),
      UpdateExpression: `REMOVE ${slots.map((slot) => slotPath(slot, '#s')).join(', ')}`,
      ExpressionAttributeNames: { '#s': slug, ...Object.fromEntries(slots.map((slot) => [`#w${slot}`, slotMap(slot)])) },
    }),
  );
}
/** Forgets a gone deck's views on their own: a count a view brought back after its deck's delete (lib/workers/views.ts). */
export const forgetViewsNow = (slug: string) => documentClient().send(new UpdateCommand(forgetting(slug)));
