/**
 * The repository of collections (items/collection.ts): read one, and write one under the version read — a write
 * that lost a race to another reads again and is made again on the newer one (nothing lost), a write whose answer
 * was lost and whose retry then failed its condition is found applied by its change id (never applied twice).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, unlessConditionFailed } from './client.ts';
import { collectionKey, type StoredCollection } from './items/collection.ts';
import { ACCOUNTS, tableName } from './tables.ts';

const table = () => tableName(ACCOUNTS);

export async function getCollection(userId: string, consistent = false): Promise<StoredCollection | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: collectionKey(userId), ConsistentRead: consistent }),
  );
  return Item
    ? {
        cards: (Item.cards as Record<string, number>) ?? {},
        version: Item.version as number,
        updated_at: Item.updated_at as string,
        change: Item.change as string,
      }
    : undefined;
}

/**
 * Writes `cards` as the collection's next version after `read` (none: the first), unless another write came
 * between: then undefined (read again). `change` names this write (a request id).
 */
export async function writeCollection(
  userId: string,
  read: StoredCollection | undefined,
  cards: Record<string, number>,
  change: string,
  now = new Date(),
): Promise<StoredCollection | undefined> {
  const next: StoredCollection = { cards, version: (read?.version ?? 0) + 1, updated_at: now.toISOString(), change };
  const written = await unlessConditionFailed(
    documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...collectionKey(userId), ...next },
        ...(read
          ? { ConditionExpression: 'version = :read', ExpressionAttributeValues: { ':read': read.version } }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      }),
    ),
  );
  if (written) return next;
  // The condition failed: another write came between, or this one was applied and its answer lost (its retry failed).
  const now_ = await getCollection(userId, true);
  return now_?.change === change ? now_ : undefined;
}
