/**
 * One local runtime (DynamoDB Local in a temporary directory + the API) for the HTTP tests of a run, and a DynamoDB
 * Local (in memory) for each test worker, where a file that needs a library of its own takes tables of its own
 * (own-tables.ts): all started before any test, so that no JVM starts beside a running test (a JVM starting beside
 * another's burst of transactions held a store for 7 s and more), and one a worker, so that a file filling its
 * library (hundreds of transactions: DynamoDB Local runs one at a time, whatever the table) holds no transaction of
 * another file's, nor of the shared runtime's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../infra/local/dynamodb.ts';
import { freePort, startRuntime } from './runtime.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dynamoEndpoint: string;
    /** A store a test worker (VITEST_POOL_ID 1, 2, …), by its number less one. */
    workerStores: string[];
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'deck-library-test-'));
  // Views reach the stored totals within about a second (the deployed 30 s window is the lifecycle test's).
  const workers = Number(project.globalConfig.maxWorkers) || 1;
  const [runtime, ...stores] = await Promise.all([
    startRuntime(dir, { ACCESS_LOG_DELIVERY_MS: '200', STREAM_BATCH_WINDOW_MS: '500' }),
    ...Array.from({ length: workers }, () => freePort().then((port) => startDynamoLocal(port))),
  ]);
  project.provide('baseUrl', runtime.baseUrl);
  project.provide('dynamoEndpoint', runtime.dynamoEndpoint);
  project.provide(
    'workerStores',
    stores.map((s) => s.endpoint),
  );
  return async () => {
    await Promise.all([runtime.stop(), ...stores.map((s) => s.stop())]);
    // The runtime's structured logs, for a look after a failing run.
    writeFileSync(join(tmpdir(), 'deck-library-test-runtime.log'), runtime.output());
    rmSync(dir, { recursive: true, force: true });
  };
}
