/**
 * Views and likes. Exact counts live in one counter item per deck, which no index holds, so counting
 * never rewrites an index. They are "folded" into the deck item and its search entries only when
 * they have moved by 10% (at least 1) since the last fold: exact up to 10, within 10% beyond, and a
 * deck's index entries are rewritten O(log n) times over n views or likes.
 *   counter: pk COUNT#<share_slug>            sk COUNT  { views, likes, folded_views, folded_likes }
 *   like:    pk LIKE#<share_slug>#<user_id>   sk LIKE   { created_at }   (one partition per like)
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, transact } from './client.ts';
import { counterKey, deckKey, entryKey, likeKey } from './keys.ts';
import type { StoredDeck } from './records.ts';
import { facetsOf, sortKeys } from './search.ts';
import { DECKS, tableName } from './tables.ts';

export const FOLD_RATIO = 0.1;
// "views" is one of DynamoDB's reserved words: name both counts through placeholders.
const COUNT_NAMES = { '#views': 'views', '#likes': 'likes' };

export interface Counts {
  views: number;
  likes: number;
  folded_views: number;
  folded_likes: number;
}

const table = () => tableName(DECKS);

const toCounts = (item: Record<string, unknown> | undefined): Counts => ({
  views: Number(item?.views ?? 0),
  likes: Number(item?.likes ?? 0),
  folded_views: Number(item?.folded_views ?? 0),
  folded_likes: Number(item?.folded_likes ?? 0),
});

export async function getCounts(slug: string, consistent = false): Promise<Counts> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: counterKey(slug), ConsistentRead: consistent }));
  return toCounts(Item);
}

export async function addViews(slug: string, n: number): Promise<Counts> {
  const { Attributes } = await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: counterKey(slug),
      UpdateExpression: 'ADD #views :n',
      ExpressionAttributeNames: { '#views': 'views' },
      ExpressionAttributeValues: { ':n': n },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return toCounts(Attributes);
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
      UpdateExpression: 'ADD #likes :d',
      ExpressionAttributeNames: { '#likes': 'likes' },
      ExpressionAttributeValues: { ':d': liked ? 1 : -1 },
    },
  };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const outcome = await transact([mark, count]);
    if (outcome !== 'conflict') return outcome === 'ok';
    await pause(attempt);
  }
  throw Object.assign(new Error('likes of this deck are contended'), { name: 'ThrottlingException' });
}

export const needsFold = (count: number, folded: number): boolean =>
  Math.abs(count - folded) >= Math.max(1, Math.ceil(folded * FOLD_RATIO));

/**
 * Folds the counts into the deck item and its search entries when they have moved enough. Each write
 * is conditional on the item still existing, so a fold never resurrects a deleted deck or entry.
 */
export async function foldIfDue(deck: StoredDeck, counts: Counts): Promise<boolean> {
  if (!needsFold(counts.views, counts.folded_views) && !needsFold(counts.likes, counts.folded_likes)) return false;
  const { views, likes } = counts;
  const keys = sortKeys({ ...deck, views, likes });
  const update = (Key: Record<string, string>, extra: Record<string, string> = {}, counts = ['#views = :v', '#likes = :l']) => {
    const sets = [...counts, ...Object.keys(extra).map((k) => `${k} = :${k}`)];
    const values = Object.fromEntries(Object.entries(extra).map(([k, v]) => [`:${k}`, v]));
    return documentClient()
      .send(
        new UpdateCommand({
          TableName: table(),
          Key,
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: sets.some((x) => x.startsWith('#')) ? COUNT_NAMES : undefined,
          ExpressionAttributeValues: { ':v': views, ':l': likes, ...values },
        }),
      )
      .catch((e: Error) => {
        if (e.name !== 'ConditionalCheckFailedException') throw e;
      });
  };
  await Promise.all([
    update(counterKey(deck.share_slug), {}, ['folded_views = :v', 'folded_likes = :l']),
    update(deckKey(deck.user_id, deck.id)),
    ...facetsOf(deck).map((f) => update(entryKey(deck.id, f), { by_views: keys.by_views, by_likes: keys.by_likes })),
  ]);
  return true;
}
