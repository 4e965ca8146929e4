/**
 * Likes, and the folding of views and likes into the deck item and its search entries.
 * A deck's exact like count lives in one counter item, which no index holds; its exact view count in
 * a bucket item shared with other decks (view-buckets.ts). Both are "folded" into the deck item and its
 * search entries — what owner reads, search items and the views/likes sort orders show — only when they
 * have moved enough since the last fold, so a deck's index entries are rewritten O(log n) times:
 *   likes: exact up to 10, within 10% beyond (a like is rare; the fold follows the like at once);
 *   views: folded when they have moved by at least max(25, 25%, 3 per item the fold rewrites) — a view is
 *   common, so folds must be rare, and a public deck has one entry per distinct card: a fold costs at
 *   most a third of an item per view it folds.
 * A fold is conditional on the item still existing (it never resurrects a deleted deck) and on moving
 * forward (a late fold with an older total never takes a deck back): views only up, likes only from a
 * later change of the counter (its `changes`, counted by every like and unlike).
 *   counter: pk COUNT#<share_slug>            sk COUNT  { likes, folded_likes, changes }
 *   like:    pk LIKE#<share_slug>#<user_id>   sk LIKE   { created_at }   (one partition per like)
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { atMost } from './at-most.ts';
import { documentClient, transact, unlessConditionFailed } from './client.ts';
import { counterKey, deckKey, entryKey, likeKey } from './keys.ts';
import type { StoredDeck } from './records.ts';
import { facetsOf, sortKeys } from './search.ts';
import { DECKS, tableName } from './tables.ts';

export const LIKES_FOLD_RATIO = 0.1;
export const VIEWS_FOLD_RATIO = 0.25;
export const VIEWS_FOLD_MIN = 25;
/** Views a fold must carry per item it rewrites (the deck item and each search entry). */
export const VIEWS_PER_FOLDED_ITEM = 3;
/** Folds run this many decks at a time (each deck's items in parallel): a batch never floods the store. */
const FOLDS_AT_ONCE = 4;

export interface Counts {
  likes: number;
  folded_likes: number;
  /** How many likes and unlikes the counter has taken: a fold carries it, so a late fold never undoes a newer one. */
  changes: number;
}

const table = () => tableName(DECKS);

export async function getCounts(slug: string, consistent = false): Promise<Counts> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: counterKey(slug), ConsistentRead: consistent }));
  return { likes: Number(Item?.likes ?? 0), folded_likes: Number(Item?.folded_likes ?? 0), changes: Number(Item?.changes ?? 0) };
}

const MAX_ATTEMPTS = 16;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(250, 10 * 2 ** attempt)));

/** Adds (or takes back) one account's like; false when there was nothing to change. */
export async function setLike(slug: string, userId: string, liked: boolean): Promise<boolean> {
  const mark = liked
    ? {
        Put: {
          TableName: table(),
          Item: { ...likeKey(slug, userId), created_at: new Date().toISOString() },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      }
    : { Delete: { TableName: table(), Key: likeKey(slug, userId), ConditionExpression: 'attribute_exists(pk)' } };
  const count = {
    Update: {
      TableName: table(),
      Key: counterKey(slug),
      UpdateExpression: 'ADD #likes :d, changes :one',
      ExpressionAttributeNames: { '#likes': 'likes' },
      ExpressionAttributeValues: { ':d': liked ? 1 : -1, ':one': 1 },
    },
  };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const outcome = await transact([mark, count]);
    if (outcome !== 'conflict') return outcome === 'ok';
    await pause(attempt);
  }
  throw Object.assign(new Error('likes of this deck are contended'), { name: 'ThrottlingException' });
}

/** Likes: exact up to 10, within 10% beyond. */
export const likesFoldDue = (count: number, folded: number): boolean =>
  Math.abs(count - folded) >= Math.max(1, Math.ceil(folded * LIKES_FOLD_RATIO));
/** How far a deck's views move before they are folded: max(25, 25%, 3 per item rewritten). */
export const viewsFoldStep = (folded: number, items: number): number =>
  Math.max(VIEWS_FOLD_MIN, Math.ceil(folded * VIEWS_FOLD_RATIO), VIEWS_PER_FOLDED_ITEM * items);

/**
 * Writes one count (views or likes) into the deck item and its search entries, only forward: views only
 * up (they only grow), likes only from a later change of the counter (`changes`; likes also go down).
 */
async function fold(deck: StoredDeck, facets: string[], field: 'views' | 'likes', value: number, changes?: number): Promise<void> {
  const sortKey = field === 'views' ? 'by_views' : 'by_likes';
  const key = sortKeys({ ...deck, [field]: value })[sortKey];
  const [order, orderValue] = changes === undefined ? ['#c', value] : ['likes_changes', changes];
  const update = (Key: Record<string, string>, withSortKey: boolean) =>
    unlessConditionFailed(
      documentClient().send(
        new UpdateCommand({
          TableName: table(),
          Key,
          UpdateExpression: `SET #c = :c${withSortKey ? `, ${sortKey} = :k` : ''}${changes === undefined ? '' : ', likes_changes = :o'}`,
          ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(${order}) OR ${order} < :o)`,
          // "views" is one of DynamoDB's reserved words: the count goes through a placeholder.
          ExpressionAttributeNames: { '#c': field },
          ExpressionAttributeValues: { ':c': value, ':o': orderValue, ...(withSortKey ? { ':k': key } : {}) },
        }),
      ),
    );
  await Promise.all([update(deckKey(deck.user_id, deck.id), false), ...facets.map((f) => update(entryKey(deck.id, f), true))]);
}

/** Folds a deck's view total when due (`deck.views` is the folded count it was read with). */
async function foldViews(deck: StoredDeck, total: number): Promise<boolean> {
  const facets = facetsOf(deck);
  if (total - deck.views < viewsFoldStep(deck.views, 1 + facets.length)) return false;
  await fold(deck, facets, 'views', total);
  return true;
}

/** Folds the decks whose totals are due, a few decks at a time; answers the decks that could not be folded and why. */
export async function foldViewTotals(due: { deck: StoredDeck; total: number }[]): Promise<{ deck: StoredDeck; error: Error }[]> {
  const failed: { deck: StoredDeck; error: Error }[] = [];
  await atMost(FOLDS_AT_ONCE, due, async ({ deck, total }) => {
    await foldViews(deck, total).catch((error: Error) => failed.push({ deck, error }));
  });
  return failed;
}

/** Folds a deck's likes when due (likes go down too: taken back). */
export async function foldLikes(deck: StoredDeck, counts: Counts): Promise<boolean> {
  if (!likesFoldDue(counts.likes, counts.folded_likes)) return false;
  await Promise.all([
    fold(deck, facetsOf(deck), 'likes', counts.likes, counts.changes),
    unlessConditionFailed(
      documentClient().send(
        new UpdateCommand({
          TableName: table(),
          Key: counterKey(deck.share_slug),
          UpdateExpression: 'SET folded_likes = :l',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':l': counts.likes },
        }),
      ),
    ),
  ]);
  return true;
}
