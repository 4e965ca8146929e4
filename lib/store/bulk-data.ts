/**
 * The bulk files' listing (items/bulk-data.ts): the export job writes a type's newest file once it is whole in the
 * bucket; the listing reads every type's in one BatchGetItem, eventually consistent (half a read unit an item).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { BULK_TYPES, type BulkType } from '#rules/bulk.ts';
import { getItems } from './bulk.ts';
import { documentClient } from './client.ts';
import { type BulkFileItem, bulkFileItem, bulkFileKey, fromBulkFileItem } from './items/bulk-data.ts';
import { DECKS, tableName } from './tables.ts';

/**
 * Lists `file` as its type's newest, unless a newer one is listed (by updated_at, then key): two exports at once
 * each list their own file whole, and the later listing stands whichever ends first. Whether it was listed.
 */
export async function writeBulkFile(file: BulkFileItem): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(DECKS),
        Item: bulkFileItem(file),
        ConditionExpression: 'attribute_not_exists(pk) OR updated_at < :at OR (updated_at = :at AND #key < :key)',
        ExpressionAttributeNames: { '#key': 'key' },
        ExpressionAttributeValues: { ':at': file.updated_at, ':key': file.key },
      }),
    );
    return true;
  } catch (e) {
    if ((e as Error).name === 'ConditionalCheckFailedException') return false;
    throw e;
  }
}

/** Each type's newest file, in BULK_TYPES's order; none for a type not yet exported. */
export async function readBulkFiles(): Promise<BulkFileItem[]> {
  const items = await getItems(BULK_TYPES.map(bulkFileKey), DECKS, false);
  return items.flatMap((item) => (item ? [fromBulkFileItem(item)] : []));
}

/** A type's newest file, if it was exported (one GetItem, eventually consistent). */
export async function readBulkFileOf(type: BulkType): Promise<BulkFileItem | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(DECKS), Key: bulkFileKey(type) }));
  return Item ? fromBulkFileItem(Item) : undefined;
}
