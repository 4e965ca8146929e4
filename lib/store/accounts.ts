/** The repository of accounts and API keys (the items: items/account.ts, items/api-key.ts). */
import { DeleteCommand, GetCommand, PutCommand, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isExpired } from '#rules/keys.ts';
import { atMost } from './at-most.ts';
import { deleteItems } from './bulk.ts';
import { documentClient, type TransactItem, transact, unlessConditionFailed } from './client.ts';
import { type Account, accountKey, NEVER } from './items/account.ts';
import { type ApiKey, apiKeyKey, apiKeyOf, type KeySummary } from './items/api-key.ts';
import { collectionKey } from './items/collection.ts';
import { ACCOUNTS, indexName, tableName } from './tables.ts';

/** Key writes of an erasure run at once. */
const AT_ONCE = 8;

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
  return Item ? accountOf(Item) : undefined;
}

const accountOf = (item: Record<string, unknown>): Account => ({
  user_id: item.user_id as string,
  display_name: item.display_name as string,
  created_at: item.created_at as string,
});

const keyItem = (key: ApiKey) => {
  const { key_id, user_id, ...rest } = key;
  return { ...apiKeyKey(key_id), key_id, key_user_id: user_id, ...rest };
};

/**
 * The account, its list of live keys, and the version every change of that list is conditioned
 * on; none for an account being erased (its keys are closed: closeKeys).
 */
async function liveKeyList(userId: string): Promise<{ account: Account; keys: Record<string, string>; version: number } | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: accountKey(userId), ConsistentRead: true }));
  return Item && Item.erasing === undefined
    ? {
        account: accountOf(Item),
        keys: { ...(Item.active_keys as Record<string, string> | undefined) },
        version: (Item.keys_version as number) ?? 0,
      }
    : undefined;
}

/** The account item's update to `keys`, written only if no other change came between (its version). */
const writeLiveKeys = (userId: string, keys: Record<string, string>, version: number): TransactItem => ({
  Update: {
    TableName: table(),
    Key: accountKey(userId),
    UpdateExpression: 'SET active_keys = :keys, keys_version = :next',
    ConditionExpression: version === 0 ? 'attribute_exists(pk) AND attribute_not_exists(keys_version)' : 'keys_version = :version',
    ExpressionAttributeValues: { ':keys': keys, ':next': version + 1, ...(version === 0 ? {} : { ':version': version }) },
  },
});

/** Attempts of a key change against concurrent ones on the same account before it gives up (503): each round one of them is written. */
const KEY_CHANGE_ATTEMPTS = 25;

/**
 * A change of an account's keys: `change` reads the account and its live keys (pruned of expired ones)
 * and answers the writes to make with the new list, or a reason not to. Retried while another change
 * of the same account's keys comes between.
 */
async function changeKeys<R extends string>(
  userId: string,
  change: (live: Record<string, string>, account: Account) => { writes: TransactItem[]; keys: Record<string, string> } | R,
): Promise<'done' | 'no_account' | R> {
  for (let attempt = 0; attempt < KEY_CHANGE_ATTEMPTS; attempt++) {
    const list = await liveKeyList(userId);
    if (!list) return 'no_account';
    const now = new Date();
    const live = Object.fromEntries(Object.entries(list.keys).filter(([, expiry]) => !isExpired(expiry === NEVER ? null : expiry, now)));
    const outcome = change(live, list.account);
    if (typeof outcome === 'string') return outcome;
    const result = await transact([...outcome.writes, writeLiveKeys(userId, outcome.keys, list.version)]);
    if (result === 'ok') return 'done';
  }
  // Contention, as a store busy answer (503 with Retry-After: lib/store/faults.ts).
  throw Object.assign(new Error("the account's keys kept changing"), { name: 'ThrottlingException' });
}

/**
 * Adds a key to an account, made by `make` from the account as this change reads it (one read of the
 * account serves both): the key written, or 'too_many' when the account already has `limit` live keys
 * (none for an operator's deckctl), or 'no_account' when there is none.
 */
export async function addKey<K extends { key: ApiKey }>(
  userId: string,
  make: (account: Account) => K,
  limit = Number.POSITIVE_INFINITY,
): Promise<K | 'no_account' | 'too_many'> {
  let made: K | undefined;
  const outcome = await changeKeys<'too_many'>(userId, (live, account) => {
    if (Object.keys(live).length >= limit) return 'too_many';
    made = make(account);
    const { key } = made;
    return {
      writes: [{ Put: { TableName: table(), Item: keyItem(key), ConditionExpression: 'attribute_not_exists(pk)' } }],
      keys: { ...live, [key.key_id]: key.expires_at ?? NEVER },
    };
  });
  return outcome === 'done' ? (made as K) : outcome;
}

/** The revocation of a key of `userId` (its item's write; held to its account). */
const revocation = (keyId: string, userId: string) => ({
  TableName: table(),
  Key: apiKeyKey(keyId),
  UpdateExpression: 'SET #s = :revoked',
  ConditionExpression: 'key_user_id = :user',
  ExpressionAttributeNames: { '#s': 'status' },
  ExpressionAttributeValues: { ':revoked': 'revoked', ':user': userId },
});

/** A consistent read, so that a revocation takes effect at once. */
export async function getKey(keyId: string): Promise<ApiKey | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: apiKeyKey(keyId), ConsistentRead: true }));
  return Item ? apiKeyOf(Item) : undefined;
}

/**
 * Revokes a key at once (the auth read is consistent): false when there is no such key (of `userId`,
 * when given). Revoking a revoked key again is done.
 */
export async function revokeKey(keyId: string, userId?: string): Promise<boolean> {
  const key = await getKey(keyId);
  if (!key || (userId !== undefined && key.user_id !== userId)) return false;
  const revoked = revocation(keyId, key.user_id);
  const outcome = await changeKeys<never>(key.user_id, (live) => {
    const { [keyId]: _gone, ...rest } = live;
    return { writes: [{ Update: revoked }], keys: rest };
  });
  // An account being erased keeps no list to update: the key alone is revoked.
  if (outcome === 'no_account') await unlessConditionFailed(documentClient().send(new UpdateCommand(revoked)));
  return true;
}

/** The ids of every key of an account the keys_by_user index lists (eventually consistent), with their status. */
async function indexedKeys(userId: string, limit = Number.POSITIVE_INFINITY): Promise<{ key_id: string; status: string }[]> {
  const found: { key_id: string; status: string }[] = [];
  const pages = paginateQuery(
    { client: documentClient() },
    {
      TableName: table(),
      IndexName: indexName('keys_by_user'),
      KeyConditionExpression: 'key_user_id = :u',
      ExpressionAttributeValues: { ':u': userId },
      ProjectionExpression: 'key_id, #s',
      ExpressionAttributeNames: { '#s': 'status' },
      ScanIndexForward: false,
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) found.push({ key_id: item.key_id as string, status: item.status as string });
    if (found.length >= limit) break;
  }
  return found;
}

/**
 * Closes an account's keys for its erasure: the account is marked as being erased — from then on no key
 * can be added to it (liveKeyList; a create that read it before fails on its changed keys_version) — and
 * every key it had is revoked: those its list of live keys named at that moment, and those the index
 * lists as active (keys made before the list). The revocations take effect at once (the auth read is
 * consistent). Repeating it is harmless.
 */
export async function closeKeys(userId: string, now = new Date()): Promise<number> {
  const marked = await unlessConditionFailed(
    documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: accountKey(userId),
        UpdateExpression:
          'SET erasing = if_not_exists(erasing, :now), active_keys = :none, keys_version = if_not_exists(keys_version, :zero) + :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':none': {}, ':zero': 0, ':one': 1 },
        ReturnValues: 'ALL_OLD',
      }),
    ),
  );
  const named = Object.keys((marked?.Attributes?.active_keys as Record<string, string> | undefined) ?? {});
  const indexed = (await indexedKeys(userId)).filter((k) => k.status === 'active').map((k) => k.key_id);
  const ids = [...new Set([...named, ...indexed])];
  await atMost(
    AT_ONCE,
    ids,
    async (id) => void (await unlessConditionFailed(documentClient().send(new UpdateCommand(revocation(id, userId))))),
  );
  return ids.length;
}

/** Deletes an erased account's key items (all it ever had: the index lists revoked ones too), its collection, and then its account item. */
export async function removeAccount(userId: string): Promise<void> {
  const ids = (await indexedKeys(userId)).map((k) => k.key_id);
  await deleteItems(ids.map(apiKeyKey), ACCOUNTS);
  // Its collection (items/collection.ts): no key of the account is left to write it again.
  await documentClient().send(new DeleteCommand({ TableName: table(), Key: collectionKey(userId) }));
  await documentClient().send(new DeleteCommand({ TableName: table(), Key: accountKey(userId) }));
}

/** Most keys a listing shows: the newest. */
export const KEYS_LISTED = 100;

/**
 * An account's keys, newest first (at most KEYS_LISTED): their ids from the keys_by_user index, each
 * then read from its item (consistently: a revocation shows at once; the index does not project labels
 * or expiry). A key made a moment ago may not be listed yet (the index is eventually consistent).
 */
export async function listKeys(userId: string): Promise<KeySummary[]> {
  const ids = (await indexedKeys(userId, KEYS_LISTED)).map((k) => k.key_id);
  const keys = await Promise.all(ids.slice(0, KEYS_LISTED).map(getKey));
  return keys.flatMap((key) => {
    if (!key || key.user_id !== userId) return [];
    const { secret_hash: _hash, ...summary } = key;
    return [summary];
  });
}
