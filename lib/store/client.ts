/**
 * One DynamoDB document client per process. DYNAMODB_ENDPOINT points it at DynamoDB Local, which
 * keys its data by access key and region: there it uses fixed fake credentials.
 * Every call is bounded in time (contract §8.1): a connection timeout, a per-attempt request timeout,
 * a few attempts with the SDK's backoff, and the request's deadline (deadline.ts) over all of them.
 */

import type { Readable } from 'node:stream';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { deadlineSignal } from './deadline.ts';

let doc: DynamoDBDocumentClient | undefined;

export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
export const LOCAL_REGION = 'eu-west-1';

/** Time bounds of one DynamoDB call: a stalled store costs at most about ATTEMPTS × (connect + request). */
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
  accountIdEndpointMode: 'preferred',
  authSchemePreference: [] as string[],
  endpointDiscoveryEnabled: false,
  userAgentAppId: async () => undefined,
  disableClockSkewCorrection: false,
} as const;

export function dynamoClient(env: NodeJS.ProcessEnv = process.env): DynamoDBClient {
  const endpoint = env.DYNAMODB_ENDPOINT;
  const { connectionTimeout, requestTimeout, maxAttempts } = STORE_TIMEOUTS;
  // throwOnRequestTimeout: without it the SDK only warns when an attempt outlives requestTimeout, and
  // a call to a stalled store outside any request's deadline (start-up, a views batch) never ends.
  const config = {
    ...SETTLED,
    maxAttempts,
    requestHandler: { connectionTimeout, requestTimeout, throwOnRequestTimeout: true },
    streamCollector: collectBody,
  };
  return endpoint
    ? new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, ...config })
    : new DynamoDBClient(config);
}

export function documentClient(): DynamoDBDocumentClient {
  if (doc) return doc;
  const client = DynamoDBDocumentClient.from(dynamoClient(), { marshallOptions: { removeUndefinedValues: true } });
  // The SDK's logger middleware redacts every input and output for its logger even when that logger
  // does nothing (about 0.4 ms of CPU for a page of 50 decks). This service logs its own lines.
  client.middlewareStack.remove('loggerMiddleware');
  // Every call carries its request's deadline (when it runs within one).
  const send = client.send.bind(client) as (command: unknown, options?: { abortSignal?: AbortSignal }) => Promise<unknown>;
  client.send = ((command: unknown, options?: { abortSignal?: AbortSignal }) => {
    const abortSignal = deadlineSignal();
    return send(command, abortSignal ? { abortSignal, ...options } : options);
  }) as typeof client.send;
  doc = client;
  return doc;
}

/** A conditional write whose condition failed changed nothing, and that is an answer: anything else is thrown. */
export const unlessConditionFailed = <T>(write: Promise<T>): Promise<T | undefined> =>
  write.catch((e: Error) => {
    if (e.name !== 'ConditionalCheckFailedException') throw e;
    return undefined;
  });

/** Most items one TransactWriteItems may hold (DynamoDB's limit). */
export const MAX_TRANSACT_ITEMS = 100;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Runs a write transaction. 'ok'; 'failed' when a condition failed; 'conflict' when another
 * transaction held an item (worth retrying). Anything else is thrown.
 */
export async function transact(items: TransactItem[]): Promise<'ok' | 'failed' | 'conflict'> {
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
    return 'ok';
  } catch (e) {
    if ((e as Error).name !== 'TransactionCanceledException') throw e;
    const codes = ((e as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code);
    if (codes.includes('ConditionalCheckFailed')) return 'failed';
    if (codes.includes('TransactionConflict')) return 'conflict';
    throw e;
  }
}
