/**
 * A Signature Version 4 signer (aws4fetch) for a service the store reaches without the SDK (catalogue-read.ts:
 * DynamoDB's JSON protocol; objects.ts: S3's REST calls): the fixed local credentials when the service is a local
 * one (its endpoint set), else the function's credentials from its environment, as Lambda sets them (Lambda developer
 * guide, "Defined runtime environment variables": AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
 * AWS_REGION). `retries`: aws4fetch's own (a 5xx or a 429 tried again with backoff); its default when not said.
 */
import { AwsClient } from 'aws4fetch';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './local.ts';

export function signer(service: string, local: string | undefined, what: string, retries?: number): { client: AwsClient; region: string } {
  const env = process.env;
  const region = local ? LOCAL_REGION : env.AWS_REGION;
  if (!region) throw new Error(`no AWS_REGION to ${what} in`);
  const credentials = local
    ? LOCAL_CREDENTIALS
    : { accessKeyId: env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '', sessionToken: env.AWS_SESSION_TOKEN };
  return { client: new AwsClient({ ...credentials, region, service, ...(retries === undefined ? {} : { retries }) }), region };
}
