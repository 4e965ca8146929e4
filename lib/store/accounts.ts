/** The repository of accounts and API keys (the items: items/account.ts, items/api-key.ts). */
import { GetCommand, PutCommand, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, unlessConditionFailed } from './client.ts';
import { type Account, accountKey } from './items/account.ts';
import { type ApiKey, apiKeyKey, apiKeyOf, type KeySummary } from './items/api-key.ts';
import { ACCOUNTS, tableName } from './tables.ts';

const table = () => tableName(ACCOUNTS);

/**
 * Puts an item that must not exist yet. Its key is new (a random id), so a failed condition can only
 * mean that an earlier attempt of this same put was applied and its answer lost (the store timed out
 * or reset after it): the put is done.
 */
const putNew = (put: PutCommand) => unlessConditionFailed(documentClient().send(put));

export async function putAccount(account: Account): Promise<void> {
  await putNew(
    new PutCommand({
      TableName: table(),
      Item: { ...accountKey(account.user_id), ...account },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getAccount(userId: string): Promise<Account | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: accountKey(userId) }));
  return Item ? { user_id: Item.user_id, display_name: Item.display_name, created_at: Item.created_at } : undefined;
}

export async function putKey(key: ApiKey): Promise<void> {
  const { key_id, user_id, ...rest } = key;
  await putNew(
    new PutCommand({
      TableName: table(),
      Item: { ...apiKeyKey(key_id), key_id, key_user_id: user_id, ...rest },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** A consistent read, so that a revocation takes effect at once. */
export async function getKey(keyId: string): Promise<ApiKey | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: apiKeyKey(keyId), ConsistentRead: true }));
  return Item ? apiKeyOf(Item) : undefined;
}

export async function revokeKey(keyId: string): Promise<boolean> {
  const revoked = await unlessConditionFailed(
    documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: apiKeyKey(keyId),
        UpdateExpression: 'SET #s = :revoked',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':revoked': 'revoked' },
      }),
    ),
  );
  // No key of that id: its condition failed.
  return revoked !== undefined;
}

export async function listKeys(userId: string): Promise<KeySummary[]> {
  const keys: KeySummary[] = [];
  const pages = paginateQuery(
    { client: documentClient() },
    {
      TableName: table(),
      IndexName: 'keys_by_user',
      KeyConditionExpression: 'key_user_id = :u',
      ExpressionAttributeValues: { ':u': userId },
    },
  );
  for await (const page of pages)
    for (const item of page.Items ?? []) {
      const { secret_hash: _hash, ...summary } = apiKeyOf(item);
      keys.push(summary);
    }
  return keys;
}
