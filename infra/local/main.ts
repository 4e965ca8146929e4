/**
 * `npm start`: the store — DynamoDB_ENDPOINT when set (contract §8.7: that store, no DynamoDB Local
 * of our own), else DynamoDB Local persisted under DATA_DIR — its tables, and the API on
 * 127.0.0.1:PORT served by the deployed handler modules. Ctrl-C stops both, Java included.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { createAccount, issueKey } from '#auth/accounts.ts';
import { SCOPES } from '#auth/keys.ts';
import { flushViews } from '#public/view-counter.ts';
import { dynamoClient } from '#store/client.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { WORKERS } from '#workers';
import { NODE_MAJOR, runningMajor } from '../node-version.ts';
import { ensureTables, type LocalDynamo, startDynamoLocal } from './dynamodb.ts';
import { onClientError, serve } from './gateway.ts';
import { installGrantsGuard } from './grants-guard.ts';
import { type StreamPoller, startStreamPoller } from './streams.ts';
import { invokeWorker } from './workers.ts';

// Requests run side by side, as Lambda runs concurrent invocations when AWS_LAMBDA_MAX_CONCURRENCY is set:
// each in its own invoke context (gateway.ts), where Powertools keeps that invocation's log keys.
process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '64';

const port = Number(process.env.PORT ?? 3000);
const dynamoPort = Number(process.env.DYNAMODB_PORT ?? 8000);
const dataDir = process.env.DATA_DIR ?? '.data';
const external = process.env.DYNAMODB_ENDPOINT;

let dynamo: LocalDynamo | undefined;
const pollers: StreamPoller[] = [];
let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections();
  // The views counted in this process and not yet written (the same batch a Lambda container keeps).
  await flushViews().catch((e: Error) => console.error(`views not written at stop: ${e.message}`));
  await Promise.all(pollers.map((p) => p.stop()));
  await dynamo?.stop();
  process.exit(code);
}
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));

const server = createServer((req, res) => void serve(req, res));
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
  if (!external) {
    await assertFree(dynamoPort, 'DYNAMODB_PORT');
    mkdirSync(dataDir, { recursive: true });
    dynamo = await startDynamoLocal(dynamoPort, dataDir).catch((e: Error) => {
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
  // Each handler may use only its route's grants, as in AWS (grants-guard.ts); the store client is made now.
  installGrantsGuard();
  const client = dynamoClient();
  const created = await ensureTables(client).catch((e: Error) => {
    throw new Error(`the store at ${endpoint} does not answer (${e.name}: ${e.message}); start it, or unset DYNAMODB_ENDPOINT`);
  });
  // What follows the store's writes (folds, purges): each worker on the table's change stream, as its
  // event source mapping runs it in AWS. STREAM_WORKERS=off for a second runtime on a store that another
  // one already follows (a worker would run twice: harmless, but twice the writes).
  for (const worker of process.env.STREAM_WORKERS === 'off' ? [] : WORKERS) {
    pollers.push(
      await startStreamPoller(
        {
          endpoint,
          tableName: tableName(DECKS),
          worker,
          invoke: (event) => invokeWorker(worker, event),
          intervalMs: Number(process.env.STREAM_POLL_MS ?? 250),
          checkpointFile: dynamo ? join(dataDir, `${worker.name}.stream-checkpoint.json`) : undefined,
          log: (message) => console.error(message),
        },
        client,
      ),
    );
  }
  client.destroy();
  await new Promise<void>((ok, fail) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      fail(e.code === 'EADDRINUSE' ? new Error(`port ${port} is taken (PORT): stop what uses it, or set PORT`) : e),
    );
    server.listen(port, '127.0.0.1', ok);
  });
  const base = `http://127.0.0.1:${port}`;
  const where = dynamo ? `DynamoDB Local on ${endpoint}, data in ${dataDir}` : `the store at ${endpoint} (DYNAMODB_ENDPOINT)`;
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
