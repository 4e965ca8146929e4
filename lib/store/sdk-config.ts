/**
 * How this service's AWS SDK clients are configured (the DynamoDB client, and the Secrets Manager
 * client that reads the cursor key): settled defaults, a Node-stream body collector, a connection pool
 * that never makes a call wait for a socket, and every call bounded in time (contract §8.1).
 */
import type { Readable } from 'node:stream';

/**
 * Time bounds of one attempt (to DynamoDB or Secrets Manager): 1 s to connect, 2.5 s for the answer.
 * The SDK starts both timers when the call is made, not when it gets a socket: a call that waited in
 * the pool's queue was timed out for waiting (under a burst, 503s from a healthy store). So the pool
 * has no ceiling (`maxSockets: Infinity`: a call never queues) and the service bounds how many calls
 * its own background work makes at once instead (folds.ts).
 */
export const STORE_TIMEOUTS = {
  connectionTimeout: 1_000,
  requestTimeout: 2_500,
  /**
   * An attempt of an operator's command (deckctl: no request, no Lambda timeout, someone waiting at a terminal).
   * A store busy with other work answers a 50-item transaction late, not never: given up at 2.5 s and sent again,
   * the same work was queued twice, and `deckctl search reindex` beside the test suite's load failed with eight
   * attempts timed out (CI, 2026-11-30) where waiting would have been answered.
   */
  operatorRequestTimeout: 30_000,
} as const;

/**
 * A response body's bytes, read as the Node stream it always is here. The SDK's own collector first
 * asks whether the body is a web ReadableStream, and asking loads Node's web streams: about 4 ms of a
 * function's first request. A body that closes before its end is an error at once (a reset: the call
 * may have been applied). A body silent for `requestTimeout` is an error too (a TimeoutError, retried
 * as one): the SDK's bound ends as an answer's headers arrive, and a body that then stalls (headers at
 * once, the rest 40 s later: tried against a local server) held a call with no deadline of its own — a
 * views batch, a worker's — as long as it stalled.
 */
export function collectBody(stream: unknown, silentMs: number = STORE_TIMEOUTS.requestTimeout): Promise<Uint8Array> {
  if (stream instanceof Uint8Array) return Promise.resolve(stream);
  const body = stream as Readable;
  // A body destroyed before it is read: its 'close' has been emitted already, and a reader waiting for it would wait
  // for ever (it hung before: test/unit/collect-body.test.ts).
  if (body.destroyed && !body.readableEnded)
    return Promise.reject(body.errored ?? Object.assign(new Error('the response body ended early'), { code: 'ECONNRESET' }));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let silence = setTimeout(stalled, silentMs);
    function stalled() {
      reject(Object.assign(new Error(`the response body was silent for ${silentMs} ms`), { name: 'TimeoutError', code: 'ETIMEDOUT' }));
      body.destroy();
    }
    const settle = () => clearTimeout(silence);
    body.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      clearTimeout(silence);
      silence = setTimeout(stalled, silentMs);
    });
    body.once('end', () => {
      settle();
      resolve(Buffer.concat(chunks));
    });
    // Kept for the body's life: an error after its end (the SDK's own timers destroying it late) reaches a listener.
    body.on('error', (error) => {
      settle();
      reject(error);
    });
    body.once('close', () => {
      settle();
      reject(Object.assign(new Error('the response body ended early'), { code: 'ECONNRESET' }));
    });
  });
}

/**
 * Settings the SDK would otherwise look for, on a client's first call, in the environment and then in
 * ~/.aws files (which a function has none of): given here as the SDK's own defaults. Region and
 * credentials still come from the environment Lambda sets.
 */
const SETTLED = {
  defaultsMode: 'legacy',
  retryMode: 'standard',
  useFipsEndpoint: false,
  useDualstackEndpoint: false,
  authSchemePreference: [] as string[],
  userAgentAppId: async () => undefined,
  disableClockSkewCorrection: false,
} as const;

/**
 * A client's configuration: the settled defaults, the time bounds, the pool and the body collector.
 * `maxAttempts` is the SDK's own retrying: the DynamoDB client retries itself (client.ts: 1 here).
 */
export function sdkClientConfig(maxAttempts: number) {
  const { connectionTimeout, requestTimeout } = STORE_TIMEOUTS;
  const pool = { keepAlive: true, maxSockets: Number.POSITIVE_INFINITY };
  return {
    ...SETTLED,
    maxAttempts,
    // throwOnRequestTimeout: without it the SDK only warns when an attempt outlives requestTimeout, and
    // a call to a stalled service outside any request's deadline (start-up, a views batch, the cursor
    // key's read) never ends.
    requestHandler: { connectionTimeout, requestTimeout, throwOnRequestTimeout: true, httpAgent: pool, httpsAgent: pool },
    streamCollector: collectBody,
  };
}
