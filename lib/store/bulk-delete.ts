/** Deleting many items at once (purges of a deleted deck's likes and versions, an erased account's items). */
import { BatchWriteCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client.ts';
import { backoff } from './retry.ts';
import { DECKS, type TableDef, tableName } from './tables.ts';

/** Most items one BatchWriteItem takes (DynamoDB's limit). */
const BATCH_WRITE_ITEMS = 25;
const UNPROCESSED_ATTEMPTS = 8;

/** Deletes items by key, 25 a call, until DynamoDB has processed every one (it may hand some back under load). */
export async function deleteItems(keys: Record<string, string>[], def: TableDef = DECKS): Promise<void> {
  const table = () => tableName(def);
  for (let i = 0; i < keys.length; i += BATCH_WRITE_ITEMS) {
    let requests: unknown[] = keys.slice(i, i + BATCH_WRITE_ITEMS).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 1; requests.length > 0; attempt++) {
      if (attempt > UNPROCESSED_ATTEMPTS)
        throw Object.assign(new Error('the store kept handing deletes back'), { name: 'ThrottlingException' });
      if (attempt > 1) await new Promise((r) => setTimeout(r, backoff(attempt)));
      const { UnprocessedItems } = await documentClient().send(new BatchWriteCommand({ RequestItems: { [table()]: requests as never } }));
      requests = UnprocessedItems?.[table()] ?? [];
    }
  }
}

/**
 * Deletes what the items of one partition of the decks table name, a page of 100 at a time (a deleted deck's likes,
 * its versions): `keysOf` gives the keys each item read (its `projection`) stands for. Answers the items read.
 */
export async function purgePartition(
  pk: string,
  projection: string,
  keysOf: (item: Record<string, unknown>) => Record<string, string>[],
): Promise<number> {
  let purged = 0;
  const pages = paginateQuery(
    { client: documentClient(), pageSize: 100 },
    {
      TableName: tableName(DECKS),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: projection,
    },
  );
  for await (const page of pages) {
    const items = page.Items ?? [];
    await deleteItems(items.flatMap(keysOf));
    purged += items.length;
  }
  return purged;
}
