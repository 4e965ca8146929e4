/**
 * Many items at once: read (BatchGetItem: the store-change worker's reads of the decks a batch changed and of the
 * figures they move) and deleted (BatchWriteItem: purges of a deleted deck's likes and versions, an erased
 * account's items). DynamoDB bills each item of a batch as its own GetItem or DeleteItem would: fewer requests,
 * the same units.
 */
import { BatchGetCommand, BatchWriteCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client.ts';
import { backoff } from './retry.ts';
import { DECKS, type TableDef, tableName } from './tables.ts';

/** Most items one BatchWriteItem takes (DynamoDB's limit). */
const BATCH_WRITE_ITEMS = 25;
/** Most keys one BatchGetItem takes (DynamoDB's limit; an answer holds at most 16 MB, the rest handed back). */
const BATCH_GET_KEYS = 100;
const UNPROCESSED_ATTEMPTS = 8;

/** The key of an item in one string (what a bulk read answers by). */
const keyId = (key: Record<string, string>) => JSON.stringify([key.pk, key.sk]);

/**
 * Reads items by key, 100 a call, strongly consistent (what a conditional write after it may rely on): each key's
 * item, or undefined, in the order of `keys`. Keys DynamoDB hands back (under load, or past an answer's 16 MB) are
 * asked again; a call that returns nothing new waits first, and after UNPROCESSED_ATTEMPTS of those it fails.
 */
export async function getItems(
  keys: readonly Record<string, string>[],
  def: TableDef = DECKS,
): Promise<(Record<string, unknown> | undefined)[]> {
  const table = tableName(def);
  const found = new Map<string, Record<string, unknown>>();
  const unique = [...new Map(keys.map((k) => [keyId(k), { pk: k.pk, sk: k.sk }])).values()];
  for (let i = 0; i < unique.length; i += BATCH_GET_KEYS) {
    let asked: Record<string, unknown>[] = unique.slice(i, i + BATCH_GET_KEYS);
    for (let idle = 0; asked.length > 0; ) {
      if (idle > UNPROCESSED_ATTEMPTS) throw Object.assign(new Error('the store kept handing reads back'), { name: 'ThrottlingException' });
      if (idle > 0) await new Promise((r) => setTimeout(r, backoff(idle)));
      const { Responses, UnprocessedKeys } = await documentClient().send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: asked, ConsistentRead: true } } }),
      );
      const items = Responses?.[table] ?? [];
      for (const item of items) found.set(keyId(item as Record<string, string>), item);
      const left = UnprocessedKeys?.[table]?.Keys ?? [];
      idle = left.length < asked.length ? 0 : idle + 1;
      asked = left;
    }
  }
  return keys.map((k) => found.get(keyId(k)));
}

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
