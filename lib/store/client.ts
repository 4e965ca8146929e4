/**
 * One DynamoDB document client per process. DYNAMODB_ENDPOINT points it at DynamoDB Local, which
 * keys its data by access key and region: there it uses fixed fake credentials.
 * Every call is bounded in time (contract §8.1): a connection timeout, a per-attempt request timeout,
 * a few attempts with the SDK's backoff, and the request's deadline (deadline.ts) over all of them.
 */

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { deadlineSignal } from './deadline.ts';
import { sdkClientConfig } from './sdk-config.ts';

let doc: DynamoDBDocumentClient | undefined;

export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
export const LOCAL_REGION = 'eu-west-1';

export function dynamoClient(env: NodeJS.ProcessEnv = process.env): DynamoDBClient {
  const endpoint = env.DYNAMODB_ENDPOINT;
  // DynamoDB's own settings, given as the SDK's defaults for the same reason as the rest (sdk-config.ts).
  const config = { ...sdkClientConfig(), accountIdEndpointMode: 'preferred', endpointDiscoveryEnabled: false } as const;
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
