/**
 * The bulk files' listing (items/bulk-data.ts): the export job writes a type's newest file once it is whole in the
 * bucket; the listing reads every type's in one BatchGetItem, eventually consistent (half a read unit an item).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { BULK_TYPES } from '#rules/bulk.ts';
import { getItems } from './bulk.ts';
import { documentClient } from './client.ts';
import { type BulkFileItem, bulkFileItem, bulkFileKey, fromBulkFileItem } from './items/bulk-data.ts';
import { DECKS, tableName } from './tables.ts';

export async function writeBulkFile(file: BulkFileItem): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName(DECKS), Item: bulkFileItem(file) }));
}

/** Each type's newest file, in BULK_TYPES's order; none for a type not yet exported. */
export async function readBulkFiles(): Promise<BulkFileItem[]> {
  const items = await getItems(BULK_TYPES.map(bulkFileKey), DECKS, false);
  return items.flatMap((item) => (item ? [fromBulkFileItem(item)] : []));
}
