/**
 * One DynamoDB document client per process. DYNAMODB_ENDPOINT points it at DynamoDB Local, which
 * keys its data by access key and region: there it uses fixed fake credentials.
 * Every call is bounded in time (contract §8.1) — a connection timeout, a per-attempt request timeout
 * (sdk-config.ts) and the request's deadline (deadline.ts) over all of them — and retried by the policy
 * of retry.ts (contract §9.1): what DynamoDB says to retry, with jittered backoff, within the deadline.
 */

import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  paginateScan,
  type ScanCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { attemptMs, currentDeadline } from './deadline.ts';
import { cancellationCodes, RETRY_REASONS } from './faults.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './local.ts';
import { withRetries } from './retry.ts';
import { STORE_TIMEOUTS, sdkClientConfig } from './sdk-config.ts';

let doc: DynamoDBDocumentClient | undefined;

/** A DynamoDB client. Its own retrying is off by default: documentClient() retries by the service's policy. */
export function dynamoClient(env: NodeJS.ProcessEnv = process.env, maxAttempts = 1): DynamoDBClient {
  const endpoint = env.DYNAMODB_ENDPOINT;
  if (endpoint && !URL.canParse(endpoint))
    throw new Error(`DYNAMODB_ENDPOINT is not a URL: ${endpoint} (the table store's, e.g. http://127.0.0.1:8000)`);
  // DynamoDB's own settings, given as the SDK's defaults for the same reason as the rest (sdk-config.ts).
  const config = { ...sdkClientConfig(maxAttempts), accountIdEndpointMode: 'preferred', endpointDiscoveryEnabled: false } as const;
  return endpoint
    ? new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, ...config })
    : new DynamoDBClient(config);
}

/** An attempt's bound outside any request, when the process is an operator's command (waitAsAnOperator). */
let unhurried: number | undefined;

/**
 * This process is an operator's command (deckctl): its store attempts, made outside any request, wait
 * STORE_TIMEOUTS.operatorRequestTimeout for their answer instead of a request's 2.5 s.
 */
export function waitAsAnOperator(): void {
  unhurried = STORE_TIMEOUTS.operatorRequestTimeout;
}

export function documentClient(): DynamoDBDocumentClient {
  if (doc) return doc;
  const client = DynamoDBDocumentClient.from(dynamoClient(), { marshallOptions: { removeUndefinedValues: true } });
  // The SDK's logger middleware redacts every input and output for its logger even when that logger
  // does nothing (about 0.4 ms of CPU for a page of 50 decks). This service logs its own lines.
  client.middlewareStack.remove('loggerMiddleware');
  // Every call carries its request's deadline (when it runs within one) and is retried by the policy.
  const send = client.send.bind(client) as (
    command: unknown,
    options?: { abortSignal?: AbortSignal; requestTimeout?: number },
  ) => Promise<unknown>;
  client.send = ((command: object, options?: { abortSignal?: AbortSignal }) => {
    const deadline = currentDeadline();
    // Every write of the service is safe to repeat (conditional, SET or REMOVE, or a transaction with a
    // client token): none is an unconditional ADD since views are counted from the access log.
    return withRetries(
      () =>
        send(
          command,
          deadline
            ? { abortSignal: deadline.signal, requestTimeout: attemptMs(deadline), ...options }
            : unhurried
              ? { requestTimeout: unhurried, ...options }
              : options,
        ),
      {
        idempotent: true,
        deadline,
      },
    );
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
/** Every item a Scan keeps, page by page (a full Scan: for operators' tools, never a route); `units` hears each page's read units. */
export async function* scanItems(
  input: Omit<ScanCommandInput, 'ExclusiveStartKey'>,
  units?: (n: number) => void,
): AsyncGenerator<Record<string, unknown>> {
  const asked = units ? { ...input, ReturnConsumedCapacity: 'TOTAL' as const } : input;
  for await (const page of paginateScan({ client: documentClient() }, asked)) {
    units?.(page.ConsumedCapacity?.CapacityUnits ?? 0);
    yield* page.Items ?? [];
  }
}

export const MAX_TRANSACT_ITEMS = 100;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Runs a write transaction. 'ok'; 'failed' when a condition failed; 'conflict' when other transactions
 * kept holding its items until the retries ran out (worth retrying later). Anything else is thrown.
 * A cancellation for a conflict or throttling is retried as any retryable error is (retry.ts). The
 * transaction carries one client token over all its attempts: DynamoDB applies a repeat of an applied
 * transaction (one whose answer was lost) as a no-op for 10 minutes, so retrying it never writes twice.
 */
export async function transact(items: TransactItem[]): Promise<'ok' | 'failed' | 'conflict'> {
  const command = new TransactWriteCommand({ TransactItems: items, ClientRequestToken: randomUUID() });
  try {
    await documentClient().send(command);
    return 'ok';
  } catch (e) {
    const codes = cancellationCodes(e);
    if (!codes) throw e;
    if (codes.includes('ConditionalCheckFailed')) return 'failed';
    if (codes.some((c) => RETRY_REASONS.has(c))) return 'conflict';
    throw e;
  }
}
