/**
 * Likes: one per account per deck, kept twice in one transaction with the deck's like counter
 * (folds.ts) — under the deck, so that a deleted deck's likes can be found and purged with it, and
 * under the account, so that an account's likes can be listed and given back (export, erasure). The
 * items: items/like.ts, items/like-count.ts.
 */
import { paginateQuery, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { deleteItems, purgePartition } from './bulk.ts';
import { documentClient, type TransactItem, transact } from './client.ts';
import { getDeck } from './decks.ts';
import { deckKey, type StoredDeck } from './items/deck.ts';
import { likedKey, likeKey } from './items/like.ts';
import { likeCountKey } from './items/like-count.ts';
import { DECKS, tableName } from './tables.ts';

const table = () => tableName(DECKS);

/** A like's two items deleted (the one under the deck only if it is there: a like taken back once). */
const unmarking = (slug: string, userId: string): TransactItem[] => [
  { Delete: { TableName: table(), Key: likeKey(slug, userId), ConditionExpression: 'attribute_exists(pk)' } },
  { Delete: { TableName: table(), Key: likedKey(userId, slug) } },
];

/** The deck's like counter moved by `delta`, and its changes counted (the order of a like fold: folds.ts). */
const counting = (slug: string, delta: 1 | -1) => ({
  TableName: table(),
  Key: likeCountKey(slug),
  UpdateExpression: 'ADD #likes :d, changes :one',
  ExpressionAttributeNames: { '#likes': 'likes' },
  ExpressionAttributeValues: { ':d': delta, ':one': 1 },
});

/** The like contended: a store busy answer (503 with Retry-After). */
const contended = () => Object.assign(new Error('likes of this deck are contended'), { name: 'ThrottlingException' });

/** The query of an account's liked items (their sort keys: the slugs), read consistently. */
const likedOf = (userId: string) => ({
  TableName: table(),
  KeyConditionExpression: 'pk = :pk',
  ExpressionAttributeValues: { ':pk': likedKey(userId, '').pk },
  ProjectionExpression: 'sk',
  ConsistentRead: true,
});

/**
 * Adds (or takes back) one account's like of `deck`, in one transaction: the like under the deck and
 * under the account, the counter, and a check that the deck still exists and is not private (a like
 * never outlives its deck). 'changed'; 'unchanged' when there was nothing to change; 'gone' when the
 * deck was deleted or made private meanwhile.
 */
export async function setLike(deck: StoredDeck, userId: string, liked: boolean): Promise<'changed' | 'unchanged' | 'gone'> {
  const slug = deck.share_slug;
  const created_at = new Date().toISOString();
  const marks = liked
    ? [
        { Put: { TableName: table(), Item: { ...likeKey(slug, userId), created_at }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: table(), Item: { ...likedKey(userId, slug), created_at } } },
      ]
    : unmarking(slug, userId);
  const outcome = await transact([
    {
      ConditionCheck: {
        TableName: table(),
        Key: deckKey(deck.user_id, deck.id),
        ConditionExpression: 'attribute_exists(pk) AND visibility <> :private',
        ExpressionAttributeValues: { ':private': 'private' },
      },
    },
    ...marks,
    { Update: counting(slug, liked ? 1 : -1) },
  ]);
  if (outcome === 'ok') return 'changed';
  if (outcome === 'conflict') throw contended();
  // A condition failed: the like's (already liked, or not liked) or the deck's (deleted or made private).
  const now = await getDeck(deck.user_id, deck.id);
  return !now || now.visibility === 'private' ? 'gone' : 'unchanged';
}

/**
 * Forgets every like of a deleted deck, both of its items (a page of likers at a time): the deck and its
 * counter are gone already, and no like can be added any more (setLike checks the deck).
 */
export const purgeLikes = (slug: string): Promise<number> =>
  purgePartition(likeKey(slug, '').pk, 'sk', (i) => [likeKey(slug, i.sk as string), likedKey(i.sk as string, slug)]);

/** Up to `limit` of the share slugs an account likes, in slug order (a page of its liked items, read consistently). */
export async function likedPage(userId: string, limit: number): Promise<string[]> {
  const { Items = [] } = await documentClient().send(new QueryCommand({ ...likedOf(userId), Limit: limit }));
  return Items.map((i) => i.sk as string);
}

/**
 * Takes back one like an account gave (its erasure): both of its items and, in the same transaction, one
 * off the deck's counter (whose change the store-change worker folds into the deck). When the
 * transaction's conditions fail — the like was taken back already, or its deck was deleted with its
 * counter (its likes are purged then: purgeLikes) — the like's items are deleted on their own, and no
 * count moves. Unlike setLike, it does not look at the deck: a like of a deck made private goes too.
 */
export async function giveBackLike(userId: string, slug: string): Promise<void> {
  const outcome = await transact([
    ...unmarking(slug, userId),
    // Only while the counter is there: a gone deck's counter is not made again.
    { Update: { ...counting(slug, -1), ConditionExpression: 'attribute_exists(pk)' } },
  ]);
  if (outcome === 'conflict') throw contended();
  if (outcome === 'failed') await deleteItems([likeKey(slug, userId), likedKey(userId, slug)]);
}

/** The share slugs an account likes (its liked items: items/like.ts), in slug order. */
export async function likedSlugs(userId: string): Promise<string[]> {
  const slugs: string[] = [];
  for await (const page of paginateQuery({ client: documentClient() }, likedOf(userId)))
    for (const item of page.Items ?? []) slugs.push(item.sk as string);
  return slugs;
}
