/**
 * How this service's AWS SDK clients are configured (the DynamoDB client, and the Secrets Manager
 * client that reads the cursor key): settled defaults, a Node-stream body collector, and every call
 * bounded in time (contract §8.1): a connection timeout, a per-attempt request timeout and a few
 * attempts with the SDK's backoff.
 */
import type { Readable } from 'node:stream';

/** Time bounds of one call (to DynamoDB or Secrets Manager): a stalled service costs at most about ATTEMPTS × (connect + request). */
export const STORE_TIMEOUTS = { connectionTimeout: 1_000, requestTimeout: 2_500, maxAttempts: 3 } as const;

/**
 * A response body's bytes, read as the Node stream it always is here. The SDK's own collector first
 * asks whether the body is a web ReadableStream, and asking loads Node's web streams: about 4 ms of a
 * function's first request. A body that closes before its end is an error at once.
 */
export function collectBody(stream: unknown): Promise<Uint8Array> {
  if (stream instanceof Uint8Array) return Promise.resolve(stream);
  const body = stream as Readable;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
    body.once('end', () => resolve(Buffer.concat(chunks)));
    body.once('error', reject);
    body.once('close', () => reject(new Error('the response body ended early')));
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

/** A client's configuration: the settled defaults, the time bounds and the body collector. */
export function sdkClientConfig() {
  const { connectionTimeout, requestTimeout, maxAttempts } = STORE_TIMEOUTS;
  return {
    ...SETTLED,
    maxAttempts,
    // throwOnRequestTimeout: without it the SDK only warns when an attempt outlives requestTimeout, and
    // a call to a stalled service outside any request's deadline (start-up, a views batch, the cursor
    // key's read) never ends.
    requestHandler: { connectionTimeout, requestTimeout, throwOnRequestTimeout: true },
    streamCollector: collectBody,
  };
}
