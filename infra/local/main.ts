/**
 * `npm start`: the store — DynamoDB_ENDPOINT when set (contract §8.7: that store, no DynamoDB Local
 * of our own), else DynamoDB Local persisted under DATA_DIR (in memory with DYNAMODB_IN_MEMORY=on) — its tables, and the API on
 * 127.0.0.1:PORT served by the deployed handler modules; the workers on the table's change stream, and
 * the access log with its subscriber (views). Ctrl-C stops everything, Java included.
 * With LAMBDA_LIFECYCLE=1 (contract §9.5) every function runs as Lambda runs it: its bundle as `cdk
 * deploy` ships it, in execution environments of its own (lambda/), one invocation at a time, frozen
 * between invocations, shut down after LAMBDA_IDLE_MS. Without it, in this process: fast to start.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, issueKey } from '#auth/accounts.ts';
import { SCOPES } from '#auth/keys.ts';
import { DEMO_CATALOGUE_FILE } from '#catalogue/load.ts';
import type { Grantee } from '#routes';
import { ROUTES, routeByName } from '#routes';
import { CATALOGUE_REFRESH, DAILY_WORKERS, VIEW_SUBSCRIPTION, WEBHOOK_DELIVERIES, WORKERS, type Worker } from '#routes/workers.ts';
import { BULK_KEPT_DAYS } from '#rules/bulk.ts';
import { dynamoClient } from '#store/client.ts';
import { LOCAL_BUCKET, LOCAL_CREDENTIALS, LOCAL_REGION, LOCAL_S3_PORT } from '#store/local.ts';
import { ACCOUNTS, DECKS, tableName } from '#store/tables.ts';
import { catalogueVersion } from '../edge-function.ts';
import { NODE_MAJOR, runningMajor } from '../node-version.ts';
import { type LocalAccessLog, startAccessLog } from './access-log.ts';
import { startQueueConsumer } from './consumer.ts';
import { ensureTables, type LocalDynamo, startDynamoLocal, stopLeftBehind } from './dynamodb.ts';
import { type LocalEdge, startLocalEdge } from './edge.ts';
import { onClientError, serve, useAccessLog, useInvoker } from './gateway.ts';
import { installGrantsGuard } from './grants-guard.ts';
import { functionConfigs, synthesised } from './lambda/functions.ts';
import { FunctionPool } from './lambda/pool.ts';
import { type LocalObjects, startLocalObjects } from './objects.ts';
import { type LocalQueue, startLocalQueue } from './queue.ts';
import { startDaily } from './schedule.ts';
import { type StreamPoller, startStreamPoller } from './streams.ts';
import { invokeWorker } from './workers.ts';

const lifecycle = process.env.LAMBDA_LIFECYCLE === '1';
// In this process, requests run side by side, as Lambda runs concurrent invocations when
// AWS_LAMBDA_MAX_CONCURRENCY is set: each in its own invoke context (gateway.ts), where Powertools keeps
// that invocation's log keys. On-demand Lambda never sets it: the lifecycle mode does not either.
if (!lifecycle) process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '64';

const port = Number(process.env.PORT ?? 3000);
const dynamoPort = Number(process.env.DYNAMODB_PORT ?? 8000);
const dataDir = process.env.DATA_DIR ?? '.data';
const external = process.env.DYNAMODB_ENDPOINT;
/**
 * DYNAMODB_IN_MEMORY=on: DynamoDB Local keeps its tables in memory — nothing of the store, its streams' positions
 * or the access log is written under DATA_DIR, and the store is gone after a stop (a run thrown away: the tests' own
 * runtimes); the pid file, the bulk files and the discarded-changes queue still are. On disk, DynamoDB Local's SQLite
 * journals and syncs every write's transaction to the file.
 */
const inMemory = process.env.DYNAMODB_IN_MEMORY === 'on';

let dynamo: LocalDynamo | undefined;
const pollers: StreamPoller[] = [];
const daily: { stop: () => Promise<void> }[] = [];
let accessLog: LocalAccessLog | undefined;
let queue: LocalQueue | undefined;
let deliveries: ReturnType<typeof startQueueConsumer> | undefined;
let edge: LocalEdge | undefined;
let objects: LocalObjects | undefined;
/** The bulk files' folder when the store is another's (DYNAMODB_ENDPOINT): a temporary one, removed at stop. */
let objectsTemp: string | undefined;
const pools = new Map<string, FunctionPool>();
let stopping = false;
/** Runs a step of the stop, and says what failed of it without ending the stop: every later step, Java's last, still runs. */
const step = async (what: string, run: () => Promise<unknown> | undefined) => {
  try {
    await run();
  } catch (e) {
    console.error(`${what} failed at stop: ${(e as Error).message}`);
  }
};
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  try {
    await step('the local edge', () => edge?.stop());
    server.close();
    server.closeAllConnections();
    // The access log's lines not yet delivered go to their subscriber first (CloudWatch would keep them).
    await step('delivering the access log', () => accessLog?.stop());
    // Then the workers hand over what their streams hold, the view log's before the store-change worker's
    // (its counts' changes are what the other folds): a clean stop leaves no window half-gathered.
    await step('the daily functions', () => Promise.all(daily.map((d) => d.stop())));
    for (const poller of [...pollers].reverse()) await step('draining a change stream', () => poller.stop({ drain: true }));
    await step('the functions', () => Promise.all([...pools.values()].map((p) => p.stop())));
    await step('the webhook deliveries', () => deliveries?.stop());
    await step('the queues', () => queue?.stop());
    await step('the bulk files’ bucket', async () => {
      await objects?.stop();
      if (objectsTemp) rmSync(objectsTemp, { recursive: true, force: true });
    });
  } finally {
    // Java last, whatever failed before it: a stop never leaves DynamoDB Local running (its pid file goes with it).
    await step('DynamoDB Local', () => dynamo?.stop());
    process.exit(code);
  }
}
// Ctrl-C in a terminal signals the whole foreground group: this process may get SIGINT more than once (from the
// terminal, and relayed by npm). Every one after the first is taken by the stop under way: none ends the
// process half-way, with Java (in a group of its own) left running. A closed terminal (SIGHUP) stops it too.
// `npm start` runs it as `node --import tsx`, not under tsx's command: that one relays a signal to its child and
// SIGKILLs the child when the child's word that it took the signal is more than 30 ms coming, twice (tsx
// dist/cli.mjs relaySignalToChild, waitForSignalFromChild) — on a loaded machine it once killed this process
// mid-stop, leaving Java running (test/runtime/local-runtime.test.ts, Ctrl-C ten times).
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));

/**
 * The API, and one path of the local runtime's own that no deployed API has: `GET /_local/streams`, when its stream
 * workers last found their change streams read to the end — `resting_since`, the earliest of the workers' latest such
 * passes (ms since the epoch; 0 while one is still handing changes over; null with none running). A test that waits
 * for what the workers do asks it whether they are still at work (test/support/settle.ts).
 */
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/_local/streams') {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ resting_since: pollers.length ? Math.min(...pollers.map((p) => p.restingSince())) : null }));
    return;
  }
  void serve(req, res);
});
server.on('clientError', onClientError);

/** Fails plainly when a port is taken, before anything is started on it. */
const assertFree = (portNumber: number, name: string) =>
  new Promise<void>((ok, fail) => {
    const probe = createNetServer();
    probe.once('error', (e: NodeJS.ErrnoException) =>
      fail(e.code === 'EADDRINUSE' ? new Error(`port ${portNumber} is taken (${name}): stop what uses it, or set ${name}`) : e),
    );
    probe.listen(portNumber, '127.0.0.1', () => probe.close(() => ok()));
  });

try {
  await assertFree(port, 'PORT');
  // Every function's bundle as `cdk deploy` ships it (LAMBDA_ASSETS: a synthesis to reuse), before anything else
  // starts: the synthesis holds this process for half a minute (CDK bundles each asset synchronously), and a
  // connection left idle through it is closed by its server (Node's after 5 s, DynamoDB Local's after about 30 s)
  // while this process cannot see it — the next call on it answered "socket hang up" and the start ended.
  let outdir: string | undefined;
  if (lifecycle) {
    console.log('Building the functions as cdk deploy does (LAMBDA_LIFECYCLE=1)…');
    outdir = await synthesised(process.env.LAMBDA_ASSETS || undefined);
  }
  if (!external) {
    mkdirSync(dataDir, { recursive: true });
    // A DynamoDB Local an earlier start left running on this data (killed without its stop) is stopped first.
    await stopLeftBehind(dataDir, (line) => console.log(line));
    await assertFree(dynamoPort, 'DYNAMODB_PORT');
    dynamo = await startDynamoLocal(dynamoPort, dataDir, { ownGroup: true, inMemory }).catch((e: Error) => {
      throw new Error(
        `DynamoDB Local could not start on 127.0.0.1:${dynamoPort} (${e.message.split('\n')[0]}); is the port taken? Set DYNAMODB_PORT`,
      );
    });
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    dynamo.process.once('exit', (code) => {
      if (!stopping) {
        console.error(`DynamoDB Local stopped unexpectedly (${code}); stopping`);
        void stop(1);
      }
    });
  }
  const endpoint = process.env.DYNAMODB_ENDPOINT as string;
  // The discarded-changes queue (lib/workers/discard.ts): what a worker gives up on lands beside the data.
  mkdirSync(dataDir, { recursive: true });
  // The webhook deliveries' queue hands its messages to the deliveries worker (consumer.ts, started below).
  queue = await startLocalQueue(
    join(dataDir, 'discarded-changes.jsonl'),
    (line) => console.error(line),
    (message) => deliveries?.deliver(message),
  );
  process.env.SQS_ENDPOINT = queue.endpoint;
  process.env.DISCARDED_QUEUE_URL = queue.url;
  process.env.DELIVERIES_QUEUE_URL = queue.deliveriesUrl;
  // Webhooks may target loopback and plain http here, for local use and tests (a deployed stack sets nothing: https
  // to public addresses only); WEBHOOK_TARGETS=public gives this runtime a deployed stack's rule.
  process.env.WEBHOOK_TARGETS ||= 'local';
  // The bulk files' bucket (contract §12.2): S3_ENDPOINT's when set, else a stand-in of the S3 calls the export job
  // and the listing make (objects.ts), its files under DATA_DIR/bulk (a temporary folder on another's store).
  if (!process.env.S3_ENDPOINT) {
    if (!dynamo) objectsTemp = mkdtempSync(join(tmpdir(), 'deck-library-bulk-'));
    const folder = objectsTemp ?? join(dataDir, 'bulk');
    objects = await startLocalObjects(folder, BULK_KEPT_DAYS, dynamo ? Number(process.env.S3_PORT ?? LOCAL_S3_PORT) : 0);
    process.env.S3_ENDPOINT = objects.endpoint;
  }
  process.env.BULK_BUCKET ||= LOCAL_BUCKET;
  // The origin the bulk files link decks on: the edge's when it runs, else the API's.
  process.env.PUBLIC_URL ||= `http://127.0.0.1:${process.env.EDGE_PORT || port}`;
  // Each handler may use only its route's grants, as in AWS (grants-guard.ts); the store client is made now.
  if (!lifecycle) installGrantsGuard();
  const client = dynamoClient();
  const created = await ensureTables(client).catch((e: Error) => {
    throw new Error(`the store at ${endpoint} does not answer (${e.name}: ${e.message}); start it, or unset DYNAMODB_ENDPOINT`);
  });
  if (outdir) {
    const names = [
      ...ROUTES.map((r) => r.name),
      ...WORKERS.map((w) => w.name),
      VIEW_SUBSCRIPTION.name,
      ...DAILY_WORKERS.map((w) => w.name),
      WEBHOOK_DELIVERIES.name,
    ];
    const local = {
      DYNAMODB_ENDPOINT: endpoint,
      AWS_REGION: LOCAL_REGION,
      AWS_DEFAULT_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_SESSION_TOKEN: 'local',
      SQS_ENDPOINT: queue.endpoint,
      DISCARDED_QUEUE_URL: queue.url,
      WEBHOOK_TARGETS: process.env.WEBHOOK_TARGETS,
      S3_ENDPOINT: process.env.S3_ENDPOINT as string,
      BULK_BUCKET: process.env.BULK_BUCKET,
      PUBLIC_URL: process.env.PUBLIC_URL,
      // The Discord application's public key, as the stack's discordPublicKey setting gives it (none: the endpoint is 404).
      ...(process.env.DISCORD_PUBLIC_KEY ? { DISCORD_PUBLIC_KEY: process.env.DISCORD_PUBLIC_KEY } : {}),
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('POWERTOOLS_')) as [string, string][]),
    };
    const given = {
      BULK_BUCKET: process.env.BULK_BUCKET as string,
      PUBLIC_URL: process.env.PUBLIC_URL as string,
      DELIVERIES_QUEUE_URL: queue.deliveriesUrl,
    };
    for (const [name, config] of functionConfigs(outdir, names, [DECKS, ACCOUNTS], queue.url, given))
      pools.set(
        name,
        new FunctionPool(config, {
          idleMs: Number(process.env.LAMBDA_IDLE_MS ?? 300_000),
          runtimeClient: process.env.LAMBDA_RUNTIME_CLIENT,
          baseEnvironment: local,
          onLog: (line) => console.log(`[${name}] ${line}`),
        }),
      );
    // A function error is API Gateway's own 500 (its body, not the contract's: the function never answered).
    useInvoker(async (route, event) => {
      const answer = await (pools.get(route.name) as FunctionPool).invoke(event);
      return answer.error
        ? { statusCode: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"Internal Server Error"}' }
        : (answer.result as object);
    });
  }
  /** Invokes a function that no route calls: in its environments, or in this process. */
  const invokeFunction = async <Answer>(fn: Grantee & { handler: string }, event: unknown): Promise<Answer> => {
    const pool = pools.get(fn.name);
    if (!pool) return invokeWorker<Answer>(fn, event);
    const answer = await pool.invoke(event);
    if (answer.error) throw new Error(`${answer.error.errorType}: ${answer.error.errorMessage}`);
    return answer.result as Answer;
  };
  // Webhook deliveries: the queue's messages to their worker, as its event source mapping hands them.
  deliveries = startQueueConsumer({
    worker: WEBHOOK_DELIVERIES,
    invoke: (event) => invokeFunction(WEBHOOK_DELIVERIES, event),
    retryMs: Number(process.env.ASYNC_RETRY_MS ?? 1_000),
    log: (message) => console.error(message),
  });
  // Views: the access log, and its subscriber (lib/routes/workers.ts VIEW_SUBSCRIPTION).
  accessLog = startAccessLog({
    subscriber: VIEW_SUBSCRIPTION,
    invoke: (event) => invokeFunction(VIEW_SUBSCRIPTION, event),
    file: dynamo && !inMemory ? join(dataDir, 'access-log.jsonl') : undefined,
    deliveryMs: Number(process.env.ACCESS_LOG_DELIVERY_MS ?? 5_000),
    retryMs: Number(process.env.ASYNC_RETRY_MS ?? 1_000),
    log: (message) => console.error(message),
  });
  useAccessLog((line) => accessLog?.write(line));
  // What follows the store's writes (folds, purges, views): each worker on the table's change stream, as
  // its event source mapping runs it in AWS, over its batching window (STREAM_BATCH_WINDOW_MS for all).
  // STREAM_WORKERS=off for a second runtime on a store that another one already follows (a worker would
  // run twice: harmless, but twice the writes).
  for (const worker of process.env.STREAM_WORKERS === 'off' ? [] : (WORKERS as readonly Worker[])) {
    const window = worker.batchingWindowSeconds ?? 0;
    pollers.push(
      await startStreamPoller(
        {
          endpoint,
          tableName: tableName(worker.table === 'decks' ? DECKS : ACCOUNTS),
          worker,
          invoke: (event) => invokeFunction(worker, event),
          intervalMs: Number(process.env.STREAM_POLL_MS ?? 250),
          batchingWindowMs: window > 0 ? Number(process.env.STREAM_BATCH_WINDOW_MS ?? window * 1000) : 0,
          checkpointFile: dynamo && !inMemory ? join(dataDir, `${worker.name}.stream-checkpoint.json`) : undefined,
          // A failing record's bounds: the worker's, or shorter ones for a test (STREAM_MAX_RECORD_AGE_SECONDS, STREAM_MAX_RETRIES).
          ...(process.env.STREAM_MAX_RECORD_AGE_SECONDS
            ? { maxRecordAgeMs: Number(process.env.STREAM_MAX_RECORD_AGE_SECONDS) * 1000 }
            : {}),
          ...(process.env.STREAM_MAX_RETRIES ? { maxRetries: Number(process.env.STREAM_MAX_RETRIES) } : {}),
          onFailure: (message) => queue?.send(JSON.stringify(message)),
          log: (message) => console.error(message),
        },
        client,
      ),
    );
  }
  // The daily functions, as their schedules run them (off with the stream workers: one per store). The catalogue's
  // refresh only with CATALOGUE_PUBLISHED=on: `npm start` keeps CATALOGUE_FILE (contract §11.5).
  if (process.env.STREAM_WORKERS !== 'off')
    for (const worker of DAILY_WORKERS.filter((w) => w !== CATALOGUE_REFRESH || process.env.CATALOGUE_PUBLISHED === 'on'))
      daily.push(
        startDaily({
          worker,
          invoke: (event) => invokeFunction(worker, event),
          retryMs: Number(process.env.ASYNC_RETRY_MS ?? 1_000),
          log: (message) => console.error(message),
        }),
      );
  client.destroy();
  await new Promise<void>((ok, fail) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      fail(e.code === 'EADDRINUSE' ? new Error(`port ${port} is taken (PORT): stop what uses it, or set PORT`) : e),
    );
    server.listen(port, '127.0.0.1', ok);
  });
  const base = `http://127.0.0.1:${port}`;
  // The edge (a local stand-in of the CloudFront distribution: edge.ts), when asked for.
  if (process.env.EDGE_PORT) {
    edge = await startLocalEdge(
      Number(process.env.EDGE_PORT),
      base,
      catalogueVersion(process.env.CATALOGUE_FILE || DEMO_CATALOGUE_FILE),
      routeByName('docsPage').path,
      `${process.env.S3_ENDPOINT}/${process.env.BULK_BUCKET}`,
    );
    console.log(`The edge (a local stand-in of CloudFront) on ${edge.url}`);
  }
  if (objects) console.log(`The bulk files' bucket (a local stand-in of S3) on ${objects.endpoint}/${process.env.BULK_BUCKET}`);
  const where = dynamo
    ? `DynamoDB Local on ${endpoint}, data ${inMemory ? 'in memory' : `in ${dataDir}`}`
    : `the store at ${endpoint} (DYNAMODB_ENDPOINT)`;
  console.log(`Deck Library API listening on ${base} (${where}; node ${process.version})`);
  if (runningMajor() !== NODE_MAJOR)
    console.error(`note: Lambda runs Node ${NODE_MAJOR}; run through npm (npm start) to use the project's Node`);
  if (created.length > 0) {
    const account = await createAccount('Demo Player');
    const { key, apiKey } = await issueKey(account.user_id, [...SCOPES]);
    console.log(`First start: a demo account and key (the key is shown only now).
  user_id: ${account.user_id}
  api_key: ${apiKey}
  scopes:  ${key.scopes.join(',')}
Try: curl -H "Authorization: Bearer ${apiKey}" ${base}/api/v1/users/${account.user_id}/decks`);
  }
  console.log('Ctrl-C stops it.');
} catch (e) {
  console.error(`could not start: ${(e as Error).message}`);
  await stop(1);
}
