/**
 * The store as a test reads it directly: every item of a table (a Scan, page by page: for the small
 * stores of the tests that look for what is left of something); and a guarded library of a file's own (tables of
 * its own in its test worker's store: own-tables.ts).
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { documentClient, dynamoClient } from '#store/client.ts';
import { DECKS, type TableDef, tableName } from '#store/tables.ts';
import { ensureTables, type LocalDynamo, startDynamoLocal } from '../../infra/local/dynamodb.ts';
import { installGrantsGuard } from '../../infra/local/grants-guard.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { type OwnTables, tablesOfOwn } from './own-tables.ts';
import { freePort } from './runtime.ts';

export async function scanAll(def: TableDef = DECKS): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new ScanCommand({ TableName: tableName(def), ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * A DynamoDB Local of its own with the tables made and this process pointed at it: the scale tests' (a run of their
 * own, test/scale/vitest.config.ts, with no worker stores), and size-growth's (20,000 decks: deleted with their tables
 * in a worker's store, they slowed the next file there twentyfold).
 */
export async function storeOfOwn(): Promise<LocalDynamo> {
  const dynamo = await startDynamoLocal(await freePort());
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
  const client = dynamoClient();
  await ensureTables(client);
  client.destroy();
  return dynamo;
}

/**
 * A library of the test file's own (tables of its own in the run's store: own-tables.ts) behind a fault proxy (none
 * injected but where a test says), made before the file's tests and deleted after them: this process's calls go
 * through it, held to the grants of the route or worker they run as (asRoute), as the local runtime holds them (and
 * IAM would).
 */
export function guardedStoreForFile(name: string): { readonly proxy: FaultProxy } {
  let tables: OwnTables | undefined;
  let proxy: FaultProxy | undefined;
  beforeAll(async () => {
    tables = await tablesOfOwn(name);
    process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
    proxy = await startFaultProxy(tables.endpoint);
    process.env.DYNAMODB_ENDPOINT = proxy.url;
    installGrantsGuard();
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await tables?.drop();
  });
  return {
    get proxy() {
      return proxy as FaultProxy;
    },
  };
}
