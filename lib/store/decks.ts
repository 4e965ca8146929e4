/**
 * Decks in the decks table: one item per deck, keyed by its owner, so that an owner path can only
 * ever reach the caller's own decks.
 *   pk USER#<user_id>  sk DECK#<deck_id>
 * Writes are conditional on `version` (optimistic concurrency): no update is lost.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DeckContent, Guide } from '#rules/deck-model.ts';
import { documentClient } from './client.ts';
import { DECKS, tableName } from './tables.ts';

/** A deck as stored: its content (snapshot excluded: derived from the code on read) and server fields. */
export interface StoredDeck extends Omit<DeckContent, 'cards_snapshot'> {
  id: string;
  user_id: string;
  share_slug: string;
  author_name: string;
  views: number;
  likes: number;
  created_at: string;
  updated_at: string;
  version: number;
}
/** An owner list item: the projection of the owner-order index (no description, no archive). */
export type ListedDeck = Omit<StoredDeck, 'archive' | 'user_id' | 'author_name'>;

const table = () => tableName(DECKS);
const key = (userId: string, deckId: string) => ({ pk: `USER#${userId}`, sk: `DECK#${deckId}` });
const isConditionFailure = (e: unknown) => (e as Error).name === 'ConditionalCheckFailedException';

const INT32_OFFSET = 2 ** 31;
const MAX_MILLIS = 9_999_999_999_999;
/** Sort key of the owner list: sort_order ascending, then updated_at descending, then id. */
export const ownerOrder = (d: Pick<StoredDeck, 'sort_order' | 'updated_at' | 'id'>): string =>
  `${String(d.sort_order + INT32_OFFSET).padStart(10, '0')}#${String(MAX_MILLIS - Date.parse(d.updated_at)).padStart(13, '0')}#${d.id}`;

function toItem(d: StoredDeck): Record<string, unknown> {
  const { id, guide, ...rest } = d;
  return {
    ...key(d.user_id, id),
    deck_id: id,
    ...rest,
    owner_order: ownerOrder(d),
    // The description is kept apart so that lists (which project without it) stay small.
    guide: guide && { system: guide.system, core_cards: guide.core_cards, reserve_recommendations: guide.reserve_recommendations },
    guide_description: guide?.description ?? '',
    ...(d.visibility === 'public' ? { public_pk: 'PUBLIC', public_sk: `${d.created_at}#${id}` } : {}),
  };
}

function fromItem(item: Record<string, unknown>): StoredDeck {
  const { pk: _pk, sk: _sk, deck_id, owner_order: _o, public_pk: _pp, public_sk: _ps, guide, guide_description, ...rest } = item;
  const g = guide as Omit<Guide, 'description'> | null | undefined;
  return {
    ...(rest as Omit<StoredDeck, 'id' | 'guide'>),
    id: deck_id as string,
    guide: g ? { ...g, description: (guide_description as string | undefined) ?? '' } : null,
  };
}

export async function getDeck(userId: string, deckId: string): Promise<StoredDeck | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: key(userId, deckId), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
}

export async function createDeck(deck: StoredDeck): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: table(), Item: toItem(deck), ConditionExpression: 'attribute_not_exists(pk)' }));
}

/** Stores `deck` if the stored version is still `expected`; false when someone changed it first. */
export async function replaceDeck(deck: StoredDeck, expected: number): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: toItem(deck),
        ConditionExpression: 'version = :expected',
        ExpressionAttributeValues: { ':expected': expected },
      }),
    );
    return true;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
}

/** Deletes a deck (at `expected` version when given): 'deleted', 'missing' or 'changed'. */
export async function deleteDeck(userId: string, deckId: string, expected?: number): Promise<'deleted' | 'missing' | 'changed'> {
  try {
    await documentClient().send(
      new DeleteCommand({
        TableName: table(),
        Key: key(userId, deckId),
        ConditionExpression: expected === undefined ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND version = :expected',
        ExpressionAttributeValues: expected === undefined ? undefined : { ':expected': expected },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'deleted';
  } catch (e) {
    if (isConditionFailure(e)) return (e as { Item?: unknown }).Item ? 'changed' : 'missing';
    throw e;
  }
}

export interface ListPosition {
  owner_order: string;
  id: string;
}

/** One page of an owner's decks in list order, after `after` when given. */
export async function listDecks(userId: string, limit: number, after?: ListPosition): Promise<{ items: ListedDeck[]; more: boolean }> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'by_owner_order',
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `USER#${userId}` },
      ExclusiveStartKey: after && { ...key(userId, after.id), owner_order: after.owner_order },
      ConsistentRead: true,
      // One more than asked: has_more is then exact.
      Limit: limit + 1,
    }),
  );
  return { items: Items.slice(0, limit).map((i) => fromItem(i) as ListedDeck), more: Items.length > limit };
}
