/**
 * A library of a test file's own in its test worker's DynamoDB Local (test/support/global-setup.ts starts one a
 * worker; a worker runs one file at a time, so the store is the file's alone while it runs): the
 * service's tables under names of the file's own, made empty, and this process's store pointed at them
 * (DYNAMODB_ENDPOINT, DECKS_TABLE, ACCOUNTS_TABLE) until `drop` deletes them and points it back (issue 59: a file
 * that needs only an empty library no longer starts a JVM of its own, nor waits to run alone). A runtime started
 * with `env` serves them.
 */
import { randomBytes } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { dynamoClient } from '#store/client.ts';
import { TABLES } from '#store/tables.ts';
import { ensureTables } from '../../infra/local/dynamodb.ts';

export interface OwnTables {
  /** The store itself. */
  endpoint: string;
  /** The store and the tables' names, for a runtime (startRuntime's extra environment) or a child process. */
  env: Record<string, string>;
  /** Deletes the tables and points this process back where it pointed before. */
  drop(): Promise<void>;
}

/**
 * `make`: the tables made now (a file that writes to them itself); false, left to the runtime the file starts on them,
 * which makes them on its first start as on an empty store (and prints its demo account, as `npm start` does).
 */
export async function tablesOfOwn(name: string, { make = true } = {}): Promise<OwnTables> {
  const stores = inject('workerStores');
  const endpoint = stores[Number(process.env.VITEST_POOL_ID ?? 1) - 1];
  if (!endpoint) throw new Error(`no store for test worker ${process.env.VITEST_POOL_ID} (${stores.length} started: maxWorkers)`);
  // DynamoDB's table names: 3–255 of [a-zA-Z0-9_.-].
  const suffix = `${name.replace(/[^a-zA-Z0-9_.-]/g, '-')}-${randomBytes(4).toString('hex')}`;
  const env: Record<string, string> = { DYNAMODB_ENDPOINT: endpoint };
  for (const def of TABLES) env[def.envVar] = `${def.id}-${suffix}`;
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const client = dynamoClient(env);
  if (make) await ensureTables(client, env);
  Object.assign(process.env, env);
  return {
    endpoint,
    env,
    drop: async () => {
      for (const [k, v] of Object.entries(before))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      for (const def of TABLES)
        await client.send(new DeleteTableCommand({ TableName: env[def.envVar] })).catch((e: Error) => {
          // A runtime that never started made none.
          if (e.name !== 'ResourceNotFoundException') throw e;
        });
      client.destroy();
    },
  };
}
