/** One local runtime (its DynamoDB Local's tables in memory, a temporary data directory, and the API) for the HTTP tests of a run. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startRuntime, THROWAWAY, UNTIMED } from './runtime.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dynamoEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'deck-library-test-'));
  // Views reach the stored totals within about a second (the deployed 30 s window is the lifecycle test's); requests
  // untimed (runtime.ts UNTIMED says why).
  const runtime = await startRuntime(dir, {
    ...UNTIMED,
    ...THROWAWAY,
    ACCESS_LOG_DELIVERY_MS: '200',
    STREAM_BATCH_WINDOW_MS: '500',
    EVENT_SETTLE_SECONDS: '1',
  });
  project.provide('baseUrl', runtime.baseUrl);
  project.provide('dynamoEndpoint', runtime.dynamoEndpoint);
  return async () => {
    await runtime.stop();
    // The runtime's structured logs, for a look after a failing run.
    writeFileSync(join(tmpdir(), 'deck-library-test-runtime.log'), runtime.output());
    rmSync(dir, { recursive: true, force: true });
  };
}
