/** Starts and stops the local runtime (`npm start`'s program) as a child process, as a user would. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REQUEST_BUDGET_MS } from '#http/time-guard.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '#routes/route.ts';
import { PROJECT_ROOT } from './shared.ts';

export interface Runtime {
  baseUrl: string;
  /** Its DATA_DIR (where its DynamoDB Local keeps its data, and its discarded-changes queue its messages). */
  dataDir: string;
  dynamoEndpoint: string;
  demo?: { userId: string; apiKey: string };
  child: ChildProcess;
  output: () => string;
  stop(): Promise<number | null>;
}

/**
 * A port nothing listens on, for a server a test starts (a runtime, a DynamoDB Local, a stand-in). Not the
 * kernel's pick (listen on port 0): that comes from the ephemeral range (ip_local_port_range, 32768–60999 here),
 * the range every outgoing connection's own port is taken from too — a port found free and closed was taken by
 * one of the run's thousands of connections before the runtime bound it (CI, 2026-11-28: "port 43255 is taken
 * (PORT)"). So ports below that range, where no connection's own port is ever taken, in a slice of this
 * worker's own (VITEST_POOL_ID is 1–maxWorkers; the run's own process, 0), handed out in turn: two workers
 * never pick the same port, nor one worker a port it handed out a moment ago.
 */
const PORT_FLOOR = 10_000;
const SLICE = 2_500; // 8 slices between 10,000 and 30,000, under the ephemeral range's floor (32768)
const slice = PORT_FLOOR + (Number(process.env.VITEST_POOL_ID ?? 0) % 8) * SLICE;
let nextInSlice = Math.floor(Math.random() * SLICE);
const listensFree = (port: number): Promise<boolean> =>
  new Promise((ok) => {
    const s = createServer();
    s.once('error', () => ok(false));
    s.listen(port, '127.0.0.1', () => s.close(() => ok(true)));
  });
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < SLICE; tried++) {
    const port = slice + (nextInSlice++ % SLICE);
    if (await listensFree(port)) return port;
  }
  throw new Error(`no free port in ${slice}–${slice + SLICE - 1}`);
}

/**
 * Starts the local runtime on a data directory: `node --import tsx infra/local/main.ts` (its stop: SIGINT to
 * it alone), or with `npm: true` as a person does, `npm start` in a process group of its own (its stop: SIGINT
 * to the whole group, as a terminal's Ctrl-C sends it). It has `startMs` to say it has started (90 s; a start that
 * builds the bundles, LAMBDA_LIFECYCLE=1, takes longer).
 */
export async function startRuntime(
  dataDir: string,
  extraEnv: Record<string, string> = {},
  { npm = false, startMs = 90_000 } = {},
): Promise<Runtime> {
  // Ports of its own, unless the caller names them (a start again on the same ports).
  const port = Number(extraEnv.PORT ?? (await freePort()));
  const dynamoPort = Number(extraEnv.DYNAMODB_PORT ?? (await freePort()));
  const s3Port = Number(extraEnv.S3_PORT ?? (await freePort()));
  const [command, args] = npm ? ['npm', ['start', '--silent']] : [process.execPath, ['--import', 'tsx', 'infra/local/main.ts']];
  const child = spawn(command, args, {
    cwd: PROJECT_ROOT,
    detached: npm,
    env: {
      ...process.env,
      PORT: String(port),
      DYNAMODB_PORT: String(dynamoPort),
      S3_PORT: String(s3Port),
      DATA_DIR: dataDir,
      // Its own bulk files' bucket (a stand-in: infra/local/objects.ts), whatever a test process has set.
      S3_ENDPOINT: '',
      BULK_BUCKET: '',
      PUBLIC_URL: '',
      CATALOGUE_FILE: '',
      // Its own DynamoDB Local, unless the caller names a store (contract §8.7), on disk unless the caller asks.
      DYNAMODB_ENDPOINT: '',
      DYNAMODB_IN_MEMORY: '',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d));
  child.stderr?.on('data', (d: Buffer) => (out += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const deadline = Date.now() + startMs;
  while (!/Ctrl-C stops it/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`local runtime did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const userId = /user_id: (\S+)/.exec(out)?.[1];
  const apiKey = /api_key: (\S+)/.exec(out)?.[1];
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    dynamoEndpoint: extraEnv.DYNAMODB_ENDPOINT || `http://127.0.0.1:${dynamoPort}`,
    demo: userId && apiKey ? { userId, apiKey } : undefined,
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) {
        if (npm) process.kill(-(child.pid as number), 'SIGINT');
        else child.kill('SIGINT');
      }
      return exited;
    },
  };
}

/**
 * What a request is given where requests are not about time: 60 s, not the deployed 8 s — the run's shared runtime and
 * a file's own. Bursts (twenty requests in flight on a DynamoDB Local, which runs one transaction at a time) beside
 * two other files on two cores queued past 8 s and answered 503 "the deck store is busy" from a healthy store
 * (plays.test.ts and edge.test.ts in CI): such a file asserts what the answers say, never how soon they come. The
 * deployed budget is held where it is the subject, on a runtime of its own (test/runtime/faults.test.ts,
 * test/api/load.test.ts: DEPLOYED_BUDGET).
 */
export const UNTIMED = { REQUEST_BUDGET_MS: '60000', LOCAL_ROUTE_TIMEOUT_S: '62' };
/**
 * A runtime thrown away after its file (a data directory of its own, removed at its close): its DynamoDB Local's tables
 * in memory. On disk, SQLite journals and syncs each write's transaction to the file: hostile-text's and plays' files side
 * by side took 103–115 s (174–194 s of CPU) with their stores on disk, 88–91 s (147–153 s) in memory (two runs each,
 * 2026-11-30); buildable's 88 s (104 s) and 76 s (97 s).
 * `npm start`'s own behaviour on disk (data kept over a restart) is test/runtime/local-runtime.test.ts's.
 */
export const THROWAWAY = { DYNAMODB_IN_MEMORY: 'on' };
/** The budget and the routes' timeout as deployed, for a runtime whose file holds them. */
export const DEPLOYED_BUDGET = { REQUEST_BUDGET_MS: String(REQUEST_BUDGET_MS), LOCAL_ROUTE_TIMEOUT_S: String(FUNCTION_TIMEOUT_SECONDS) };

/**
 * A runtime of its own for one test file (a library that holds only the decks the file makes): a fresh
 * data directory, and this process's API calls (API_BASE_URL) and store (DYNAMODB_ENDPOINT) pointed at
 * it. Its requests are untimed (above). `close` stops it and undoes the rest.
 */
export type OwnRuntime = Runtime & { close(): Promise<void> };
export async function ownRuntime(name: string, extraEnv: Record<string, string> = {}): Promise<OwnRuntime> {
  const dir = mkdtempSync(join(tmpdir(), `deck-library-${name}-`));
  const runtime = await startRuntime(dir, { ...UNTIMED, ...THROWAWAY, ...extraEnv });
  const store = process.env.DYNAMODB_ENDPOINT;
  process.env.API_BASE_URL = runtime.baseUrl;
  process.env.DYNAMODB_ENDPOINT = runtime.dynamoEndpoint;
  return {
    ...runtime,
    close: async () => {
      delete process.env.API_BASE_URL;
      if (store === undefined) delete process.env.DYNAMODB_ENDPOINT;
      else process.env.DYNAMODB_ENDPOINT = store;
      await runtime.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
