/**
 * Views, kept many decks to an item: a deck's exact view count is an attribute of one of 256 bucket
 * items (by a hash of its share slug). A container's batch of views costs one UpdateItem per bucket
 * it touches (ADD, up to 50 decks per call), however many decks and views the batch holds; a shared
 * read gets a deck's count with one GetItem of one attribute. Items stay small: 10,000 public decks
 * make about 40 attributes a bucket (≈ 1 KB), 100,000 about 400 (≈ 7 KB).
 *   bucket: pk VIEWS#<000-255>  sk VIEWS  { v_<share_slug>: views, … }
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, once, type TransactItem } from './client.ts';
import { DECKS, tableName } from './tables.ts';

export const VIEW_BUCKETS = 256;
/** Decks per UpdateItem (an update expression is at most 4 KB). */
const PER_CALL = 50;

/** FNV-1a: a stable, cheap spread of slugs over the buckets. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
export const bucketKey = (slug: string) => ({ pk: `VIEWS#${String(fnv1a(slug) % VIEW_BUCKETS).padStart(3, '0')}`, sk: 'VIEWS' });
/** A deck's count in its bucket is the attribute `v_<share_slug>`. */
export const VIEW_ATTRIBUTE_PREFIX = 'v_';
const attribute = (slug: string) => `${VIEW_ATTRIBUTE_PREFIX}${slug}`;
const table = () => tableName(DECKS);

/** A deck's stored view count (eventually consistent). */
export async function storedViews(slug: string): Promise<number> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: bucketKey(slug),
      ProjectionExpression: '#a',
      ExpressionAttributeNames: { '#a': attribute(slug) },
    }),
  );
  return Number(Item?.[attribute(slug)] ?? 0);
}

/**
 * Adds a batch of views (slug → count): one call per bucket and 50 decks. Answers each deck's new
 * total, and the views of any call that failed (to be kept and written later: never counted twice).
 */
export async function addViews(batch: ReadonlyMap<string, number>): Promise<{ totals: Map<string, number>; failed: Map<string, number> }> {
  const byBucket = new Map<string, string[]>();
  for (const slug of batch.keys()) {
    const { pk } = bucketKey(slug);
    byBucket.set(pk, [...(byBucket.get(pk) ?? []), slug]);
  }
  const calls: string[][] = [];
  for (const slugs of byBucket.values()) for (let i = 0; i < slugs.length; i += PER_CALL) calls.push(slugs.slice(i, i + PER_CALL));
  const totals = new Map<string, number>();
  const failed = new Map<string, number>();
  await Promise.all(
    calls.map(async (slugs) => {
      const names = Object.fromEntries(slugs.map((s, i) => [`#a${i}`, attribute(s)]));
      const values = Object.fromEntries(slugs.map((s, i) => [`:n${i}`, batch.get(s) as number]));
      try {
        // An ADD is not repeated once it may have been applied (a timeout, a reset): its views are kept
        // for the next window instead (retry.ts), unless the store answered that nothing was applied.
        const { Attributes = {} } = await documentClient().send(
          once(
            new UpdateCommand({
              TableName: table(),
              Key: bucketKey(slugs[0] as string),
              UpdateExpression: `ADD ${slugs.map((_, i) => `#a${i} :n${i}`).join(', ')}`,
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
              ReturnValues: 'UPDATED_NEW',
            }),
          ),
        );
        for (const s of slugs) totals.set(s, Number(Attributes[attribute(s)] ?? 0));
      } catch {
        for (const s of slugs) failed.set(s, batch.get(s) as number);
      }
    }),
  );
  return { totals, failed };
}

/** Forgets a deleted deck's views (in the delete's transaction). */
export const forgetViews = (slug: string): TransactItem => ({
  Update: { TableName: table(), Key: bucketKey(slug), UpdateExpression: 'REMOVE #a', ExpressionAttributeNames: { '#a': attribute(slug) } },
});
