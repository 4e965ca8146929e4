/**
 * A library of a test file's own in the run's DynamoDB Local of libraries (test/support/global-setup.ts's): the
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

export async function tablesOfOwn(name: string): Promise<OwnTables> {
  const endpoint = inject('librariesEndpoint');
  // DynamoDB's table names: 3–255 of [a-zA-Z0-9_.-].
  const suffix = `${name.replace(/[^a-zA-Z0-9_.-]/g, '-')}-${randomBytes(4).toString('hex')}`;
  const env: Record<string, string> = { DYNAMODB_ENDPOINT: endpoint };
  for (const def of TABLES) env[def.envVar] = `${def.id}-${suffix}`;
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const client = dynamoClient(env);
  await ensureTables(client, env);
  Object.assign(process.env, env);
  return {
    endpoint,
    env,
    drop: async () => {
      for (const [k, v] of Object.entries(before))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      for (const def of TABLES) await client.send(new DeleteTableCommand({ TableName: env[def.envVar] }));
      client.destroy();
    },
  };
}
