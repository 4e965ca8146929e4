/** The queues' client (Amazon SQS): SQS_ENDPOINT points it at the local stand-in (its fixed fake credentials), as DYNAMODB_ENDPOINT does the store's. */
import { SQSClient } from '@aws-sdk/client-sqs';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './local.ts';
import { sdkClientConfig } from './sdk-config.ts';

let sqs: SQSClient | undefined;
export function sqsClient(env: NodeJS.ProcessEnv = process.env): SQSClient {
  const endpoint = env.SQS_ENDPOINT;
  sqs ??= endpoint
    ? new SQSClient({ ...sdkClientConfig(3), endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS })
    : new SQSClient(sdkClientConfig(3));
  return sqs;
}
