/**
 * One local runtime (DynamoDB Local in a temporary directory + the API) for the HTTP tests of a run, and one DynamoDB
 * Local (in memory) where files that need a library of their own take tables of their own (own-tables.ts): apart from
 * the runtime's, so that a file filling its library (hundreds of transactions: DynamoDB Local runs one at a time,
 * whatever the table) holds no transaction of the shared runtime's.
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
    librariesEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'deck-library-test-'));
  // Views reach the stored totals within about a second (the deployed 30 s window is the lifecycle test's).
  const [runtime, libraries] = await Promise.all([
    startRuntime(dir, { ACCESS_LOG_DELIVERY_MS: '200', STREAM_BATCH_WINDOW_MS: '500' }),
    freePort().then((port) => startDynamoLocal(port)),
  ]);
  project.provide('baseUrl', runtime.baseUrl);
  project.provide('dynamoEndpoint', runtime.dynamoEndpoint);
  project.provide('librariesEndpoint', libraries.endpoint);
  return async () => {
    await Promise.all([runtime.stop(), libraries.stop()]);
    // The runtime's structured logs, for a look after a failing run.
    writeFileSync(join(tmpdir(), 'deck-library-test-runtime.log'), runtime.output());
    rmSync(dir, { recursive: true, force: true });
  };
}
