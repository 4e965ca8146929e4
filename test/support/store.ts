/**
 * The store as a test reads it directly: every item of a table (a Scan, page by page: for the small
 * stores of the tests that look for what is left of something), and a DynamoDB Local of a test file's
 * own with the tables made and this process pointed at it (no runtime, no worker beside it).
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { documentClient, dynamoClient } from '#store/client.ts';
import { DECKS, type TableDef, tableName } from '#store/tables.ts';
import { ensureTables, type LocalDynamo, startDynamoLocal } from '../../infra/local/dynamodb.ts';
import { installGrantsGuard } from '../../infra/local/grants-guard.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
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
 * A store of the test file's own behind a fault proxy (none injected but where a test says), made before
 * the file's tests and stopped after them: this process's calls go through it, held to the grants of the
 * route or worker they run as (asRoute), as the local runtime holds them (and IAM would).
 */
export function guardedStoreForFile(): { readonly proxy: FaultProxy } {
  let dynamo: LocalDynamo | undefined;
  let proxy: FaultProxy | undefined;
  beforeAll(async () => {
    dynamo = await storeOfOwn();
    proxy = await startFaultProxy(dynamo.endpoint);
    process.env.DYNAMODB_ENDPOINT = proxy.url;
    installGrantsGuard();
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await dynamo?.stop();
  });
  return {
    get proxy() {
      return proxy as FaultProxy;
    },
  };
}
