/** Waits until no write has passed the proxy for `quietMs`: the worker has nothing left to do. */
export async function quiet(proxy: FaultProxy, quietMs = 600, boundMs = 30_000): Promise<void> {
  const total = () => [...proxy.written.values()].reduce((a, b) => a + b, 0);
  const until = Date.now() + boundMs;
  let last = total();
  let since = Date.now();
  while (Date.now() - since < quietMs && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    const now = total();
    if (now !== last) [last, since] = [now, Date.now()];
  }
}

/**
 * A store of a test file's own, behind a fault proxy: its own DynamoDB Local (in memory), the proxy in
 * front of it, and a local runtime (the API and its store-change worker) that reaches the store only
 * through the proxy — so that every call the service makes can be delayed, faulted or counted, and no
 * other runtime's worker touches this store. This process's own store calls (test setup, checks) go to
 * the store directly (DYNAMODB_ENDPOINT), and its API calls to the runtime (API_BASE_URL).
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

/** `throughProxy`: this process's store calls go through the proxy too (to be counted with the runtime's). */
export async function isolatedRuntime(extraEnv: Record<string, string> = {}, { throughProxy = false } = {}): Promise<Isolated> {
  const dynamo = await startDynamoLocal(await freePort());
  const proxy = await startFaultProxy(dynamo.endpoint);
  const runtime = await startRuntime('/nonexistent-data-dir', { DYNAMODB_ENDPOINT: proxy.url, STREAM_POLL_MS: '25', ...extraEnv });
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
