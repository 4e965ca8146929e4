/**
 * Accounts and API keys in the accounts table.
 *   account: pk USER#<user_id>  sk ACCOUNT  { display_name, created_at }
 *   key:     pk KEY#<key_id>    sk KEY      { key_user_id, display_name, secret_hash, scopes, status, created_at }
 */
import { GetCommand, PutCommand, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '#rules/scopes.ts';
import { documentClient, unlessConditionFailed } from './client.ts';
import { ACCOUNTS, tableName } from './tables.ts';

export interface Account {
  user_id: string;
  display_name: string;
  created_at: string;
}
export interface KeyRecord {
  key_id: string;
  user_id: string;
  display_name: string;
  secret_hash: string;
  scopes: Scope[];
  status: 'active' | 'revoked';
  created_at: string;
}

const table = () => tableName(ACCOUNTS);
const keyKey = (keyId: string) => ({ pk: `KEY#${keyId}`, sk: 'KEY' });

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
      Item: { pk: `USER#${account.user_id}`, sk: 'ACCOUNT', ...account },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getAccount(userId: string): Promise<Account | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: { pk: `USER#${userId}`, sk: 'ACCOUNT' } }));
  return Item ? { user_id: Item.user_id, display_name: Item.display_name, created_at: Item.created_at } : undefined;
}

export async function putKey(key: KeyRecord): Promise<void> {
  const { key_id, user_id, ...rest } = key;
  await putNew(
    new PutCommand({
      TableName: table(),
      Item: { ...keyKey(key_id), key_id, key_user_id: user_id, ...rest },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

const toKey = (item: Record<string, unknown>): KeyRecord => ({
  key_id: item.key_id as string,
  user_id: item.key_user_id as string,
  display_name: item.display_name as string,
  secret_hash: item.secret_hash as string,
  scopes: item.scopes as Scope[],
  status: item.status as KeyRecord['status'],
  created_at: item.created_at as string,
});

/** A consistent read, so that a revocation takes effect at once. */
export async function getKey(keyId: string): Promise<KeyRecord | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: keyKey(keyId), ConsistentRead: true }));
  return Item ? toKey(Item) : undefined;
}

export async function revokeKey(keyId: string): Promise<boolean> {
  const revoked = await unlessConditionFailed(
    documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: keyKey(keyId),
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

export type KeySummary = Omit<KeyRecord, 'secret_hash'>;

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
      const { secret_hash: _hash, ...summary } = toKey(item);
      keys.push(summary);
    }
  return keys;
}
