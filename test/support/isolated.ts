/**
 * A store of a test file's own, behind a fault proxy: its own DynamoDB Local (in memory), the proxy in
 * front of it, and a local runtime (the API and its store-change worker) that reaches the store only
 * through the proxy — so that every call the service makes can be delayed, faulted or counted, and no
 * other runtime's worker touches this store. Its own DynamoDB Local, not tables of its own in the run's:
 * DynamoDB Local runs one transaction at a time (about 80 a second of 16 items, whatever the tables), and
 * a test that writes hundreds held every other test's transactions for seconds (503s from a healthy store).
 * This process's own store calls (test setup, checks) go to the store directly (or, `throughProxy`,
 * through the proxy too, to be counted with the runtime's), and its API calls to the runtime.
 */
import { startDynamoLocal } from '../../infra/local/dynamodb.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { freePort, type Runtime, startRuntime } from './runtime.ts';

export interface Isolated {
  proxy: FaultProxy;
  runtime: Runtime;
  /** The store itself (not through the proxy). */
  endpoint: string;
  close(): Promise<void>;
}

/** The calls of the change stream's poller: it polls whether or not there is work. */
const POLLING = new Set(['GetRecords', 'DescribeStream', 'GetShardIterator', 'ListStreams']);
/** Outcomes the proxy counts beside operations (seen.get('error') …): not calls of their own. */
const OUTCOMES = new Set(['stall', 'delay', 'delayAnswer', 'reset', 'dropAnswer', 'cut', 'error', 'dropped']);

/**
 * Waits until the service has made no store call but the stream poller's for `quietMs`: every request
 * answered, the worker idle — not retrying a batch either (it retries within a second), so the store
 * is at rest. `quietMs` is longer than the worker's longest pause between two attempts (1 s).
 */
export async function quiet(proxy: FaultProxy, quietMs = 1_500, boundMs = 60_000): Promise<void> {
  const total = () => [...proxy.seen].reduce((n, [op, count]) => (POLLING.has(op) || OUTCOMES.has(op) ? n : n + count), 0);
  const until = Date.now() + boundMs;
  let last = total();
  let since = Date.now();
  while (Date.now() - since < quietMs && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    const now = total();
    if (now !== last) [last, since] = [now, Date.now()];
  }
}

export async function isolatedRuntime(extraEnv: Record<string, string> = {}, { throughProxy = false } = {}): Promise<Isolated> {
  const dynamo = await startDynamoLocal(await freePort());
  const proxy = await startFaultProxy(dynamo.endpoint);
  // Two stream workers poll (the store-change and the view-log workers): every 100 ms each, a tenth of a core
  // of DynamoDB Local's between them (at 50 ms, a fifth: measured idle) on a machine every JVM shares.
  const runtime = await startRuntime('/nonexistent-data-dir', { DYNAMODB_ENDPOINT: proxy.url, STREAM_POLL_MS: '100', ...extraEnv });
  process.env.DYNAMODB_ENDPOINT = throughProxy ? proxy.url : dynamo.endpoint;
  process.env.API_BASE_URL = runtime.baseUrl;
  return {
    proxy,
    runtime,
    endpoint: dynamo.endpoint,
    close: async () => {
      delete process.env.API_BASE_URL;
      await runtime.stop();
      await proxy.close();
      await dynamo.stop();
    },
  };
}
