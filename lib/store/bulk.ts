/**
 * Many items at once: read (BatchGetItem: the store-change worker's reads of the decks a batch changed and of the
 * figures they move) and deleted (BatchWriteItem: purges of a deleted deck's likes and versions, an erased
 * account's items). DynamoDB bills each item of a bulk call as its own GetItem or DeleteItem would: fewer requests,
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
 * Sends `requests` until DynamoDB has processed every one: `send` answers those it handed back (under load, or
 * past a bulk read's 16 MB), which are sent again after a backoff; after UNPROCESSED_ATTEMPTS calls it fails.
 */
async function untilProcessed<T>(requests: T[], send: (requests: T[]) => Promise<T[]>, what: string): Promise<void> {
  for (let attempt = 1; requests.length > 0; attempt++) {
    if (attempt > UNPROCESSED_ATTEMPTS)
      throw Object.assign(new Error(`the store kept handing ${what} back`), { name: 'ThrottlingException' });
    if (attempt > 1) await new Promise((r) => setTimeout(r, backoff(attempt)));
    requests = await send(requests);
  }
}

/**
 * Reads items by key, 100 a call, strongly consistent (what a conditional write after it may rely on) unless
 * `consistent` is false (half the read units: a search's page): each key's item, or undefined, in the order of `keys`;
 * `units` hears the read units of each call.
 */
export async function getItems(
  keys: readonly Record<string, string>[],
  def: TableDef = DECKS,
  consistent = true,
  units?: (n: number) => void,
): Promise<(Record<string, unknown> | undefined)[]> {
  const table = tableName(def);
  const found = new Map<string, Record<string, unknown>>();
  const unique = [...new Map(keys.map((k) => [keyId(k), { pk: k.pk, sk: k.sk }])).values()];
  for (let i = 0; i < unique.length; i += BATCH_GET_KEYS)
    await untilProcessed<Record<string, unknown>>(
      unique.slice(i, i + BATCH_GET_KEYS),
      async (asked) => {
        const { Responses, UnprocessedKeys, ConsumedCapacity } = await documentClient().send(
          new BatchGetCommand({
            RequestItems: { [table]: { Keys: asked, ConsistentRead: consistent } },
            ...(units ? { ReturnConsumedCapacity: 'TOTAL' } : {}),
          }),
        );
        units?.((ConsumedCapacity ?? []).reduce((n, c) => n + (c.CapacityUnits ?? 0), 0));
        for (const item of Responses?.[table] ?? []) found.set(keyId(item as Record<string, string>), item);
        return UnprocessedKeys?.[table]?.Keys ?? [];
      },
      'reads',
    );
  return keys.map((k) => found.get(keyId(k)));
}

/** Deletes items by key, 25 a call, until DynamoDB has processed every one (it may hand some back under load). */
export async function deleteItems(keys: Record<string, string>[], def: TableDef = DECKS): Promise<void> {
  const table = tableName(def);
  for (let i = 0; i < keys.length; i += BATCH_WRITE_ITEMS)
    await untilProcessed<unknown>(
      keys.slice(i, i + BATCH_WRITE_ITEMS).map((Key) => ({ DeleteRequest: { Key } })),
      async (requests) => {
        const { UnprocessedItems } = await documentClient().send(new BatchWriteCommand({ RequestItems: { [table]: requests as never } }));
        return UnprocessedItems?.[table] ?? [];
      },
      'deletes',
    );
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
