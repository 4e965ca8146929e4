/**
 * One DynamoDB document client per process. DYNAMODB_ENDPOINT points it at DynamoDB Local, which
 * keys its data by access key and region: there it uses fixed fake credentials.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

let doc: DynamoDBDocumentClient | undefined;

export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
export const LOCAL_REGION = 'eu-west-1';

export function dynamoClient(env: NodeJS.ProcessEnv = process.env): DynamoDBClient {
  const endpoint = env.DYNAMODB_ENDPOINT;
  return endpoint
    ? new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 3 })
    : new DynamoDBClient({ maxAttempts: 3 });
}

export function documentClient(): DynamoDBDocumentClient {
  doc ??= DynamoDBDocumentClient.from(dynamoClient(), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return doc;
}

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
