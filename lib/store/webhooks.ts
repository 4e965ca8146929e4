/**
 * The repository of webhooks (items/webhook.ts): an endpoint written with its subscriber items and its account's count
 * in one transaction, on the version read; deliveries written once (a change seen twice makes none more) and their
 * attempts recorded on the version read.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { isDiscordWebhook, WEBHOOK_LIMITS, type WebhookEvent } from '#rules/webhooks.ts';
import { deleteItems } from './bulk.ts';
import { documentClient, type TransactItem, transact, unlessConditionFailed } from './client.ts';
import { ALL_FACET, entryKey } from './items/search-entry.ts';
import {
  DELIVERY,
  deliveryKey,
  HOOKS,
  hooksKey,
  type StoredDelivery,
  type StoredHook,
  type StoredWebhook,
  WEBHOOK,
  webhookCountKey,
  webhookKey,
} from './items/webhook.ts';
import { DECKS, tableName } from './tables.ts';

type Outcome = 'ok' | 'failed' | 'conflict';
const table = () => tableName(DECKS);
const stripKeys = <T>(item: Record<string, unknown>): T => {
  const { pk: _pk, sk: _sk, expires_at: _e, ...rest } = item;
  return rest as T;
};

/** The subscriber items an endpoint has: one an event it takes, while it is enabled. */
const hooksOf = (w: StoredWebhook): WebhookEvent[] => (w.disabled ? [] : w.events);
const hookItem = (w: StoredWebhook, event: WebhookEvent) => ({
  ...hooksKey(event, w.user_id, w.webhook_id),
  user_id: w.user_id,
  webhook_id: w.webhook_id,
  filters: w.filters,
  discord: isDiscordWebhook(w.url),
});

/** The subscriber items' writes that take an endpoint from `was` (none: new) to `is` (none: deleted). */
function hookWrites(was: StoredWebhook | undefined, is: StoredWebhook | undefined): TransactItem[] {
  // Its description or secrets changed, or its failures: its subscribers are what they were.
  if (
    was &&
    is &&
    JSON.stringify(hookItem(was, 'deck.published')) === JSON.stringify(hookItem(is, 'deck.published')) &&
    hooksOf(was).join() === hooksOf(is).join()
  )
    return [];
  const before = was ? hooksOf(was) : [];
  const after = is ? hooksOf(is) : [];
  const user = (is ?? was) as StoredWebhook;
  return [
    ...before
      .filter((e) => !after.includes(e))
      .map((e): TransactItem => ({ Delete: { TableName: table(), Key: hooksKey(e, user.user_id, user.webhook_id) } })),
    ...(is ? after.map((e): TransactItem => ({ Put: { TableName: table(), Item: hookItem(is, e) } })) : []),
  ];
}

/** A new endpoint, its subscribers and one more on its account's count — 'failed' when the account has its most already. */
export const createWebhook = (w: StoredWebhook): Promise<Outcome> =>
  transact([
    {
      Put: { TableName: table(), Item: { ...webhookKey(w.user_id, w.webhook_id), ...w }, ConditionExpression: 'attribute_not_exists(pk)' },
    },
    {
      Update: {
        TableName: table(),
        Key: webhookCountKey(w.user_id),
        UpdateExpression: 'ADD n :one',
        ConditionExpression: 'attribute_not_exists(n) OR n < :most',
        ExpressionAttributeValues: { ':one': 1, ':most': WEBHOOK_LIMITS.perAccount },
      },
    },
    ...hookWrites(undefined, w),
  ]);

/** An endpoint changed from the version read (`read`) to `next`, its subscribers with it — 'failed' when another change came between. */
export const changeWebhook = (read: StoredWebhook, next: StoredWebhook): Promise<Outcome> =>
  transact([
    {
      Put: {
        TableName: table(),
        Item: { ...webhookKey(next.user_id, next.webhook_id), ...next },
        ConditionExpression: 'version = :read',
        ExpressionAttributeValues: { ':read': read.version },
      },
    },
    ...hookWrites(read, next),
  ]);

/** An endpoint deleted as read, its subscribers with it, one less on its account's count. Its deliveries expire. */
export const deleteWebhook = (read: StoredWebhook): Promise<Outcome> =>
  transact([
    {
      Delete: {
        TableName: table(),
        Key: webhookKey(read.user_id, read.webhook_id),
        ConditionExpression: 'version = :read',
        ExpressionAttributeValues: { ':read': read.version },
      },
    },
    {
      Update: {
        TableName: table(),
        Key: webhookCountKey(read.user_id),
        UpdateExpression: 'ADD n :less',
        ExpressionAttributeValues: { ':less': -1 },
      },
    },
    ...hookWrites(read, undefined),
  ]);

export async function getWebhook(userId: string, webhookId: string, consistent = false): Promise<StoredWebhook | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: webhookKey(userId, webhookId), ConsistentRead: consistent }),
  );
  return Item ? stripKeys<StoredWebhook>(Item) : undefined;
}

/** Every item of one partition, page by page. */
async function partition(pk: string, options: { newestFirst?: boolean; limit?: number } = {}): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ScanIndexForward: !options.newestFirst,
        ExclusiveStartKey: start,
        ...(options.limit ? { Limit: options.limit - items.length } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start && (!options.limit || items.length < options.limit));
  return items;
}

/** An account's endpoints, oldest made first. */
export async function listWebhooks(userId: string): Promise<StoredWebhook[]> {
  return (await partition(WEBHOOK.pk(userId)))
    .filter((i) => i.sk !== WEBHOOK.countSk)
    .map((i) => stripKeys<StoredWebhook>(i))
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/** The endpoints an event reaches (enabled ones), with their filters. */
export const subscribersOf = async (event: WebhookEvent): Promise<StoredHook[]> =>
  (await partition(HOOKS.pk(event))).map((i) => stripKeys<StoredHook>(i));

/** When a delivery made at `created` expires (TTL, seconds). */
const expiresAt = (created: string) => Math.floor(Date.parse(created) / 1000) + WEBHOOK_LIMITS.deliveryDays * 86_400;

/** A delivery written under a condition, its TTL with it: false when the condition failed. */
async function writeDelivery(
  d: StoredDelivery,
  condition: { ConditionExpression: string; ExpressionAttributeValues?: Record<string, unknown> },
) {
  const put = await unlessConditionFailed(
    documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...deliveryKey(d.webhook_id, d.delivery_id), ...d, expires_at: expiresAt(d.created_at) },
        ...condition,
      }),
    ),
  );
  return put !== undefined;
}

/** A delivery written once: false when it was written before (the same change seen again). */
export const putDelivery = (d: StoredDelivery): Promise<boolean> => writeDelivery(d, { ConditionExpression: 'attribute_not_exists(pk)' });

export async function getDelivery(webhookId: string, deliveryId: string): Promise<StoredDelivery | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: deliveryKey(webhookId, deliveryId), ConsistentRead: true }),
  );
  return Item ? stripKeys<StoredDelivery>(Item) : undefined;
}

/** A delivery as changed from the version read (an attempt recorded, a replay begun): false when another change came between. */
export const changeDelivery = (read: StoredDelivery, next: StoredDelivery): Promise<boolean> =>
  writeDelivery(next, { ConditionExpression: 'version = :read', ExpressionAttributeValues: { ':read': read.version } });

/**
 * An endpoint's newest deliveries, newest made first (an id's time is its change's, to the stream's second: ties of one
 * second are put in the order they were made).
 */
export const listDeliveries = async (webhookId: string, limit: number): Promise<StoredDelivery[]> =>
  (await partition(DELIVERY.pk(webhookId), { newestFirst: true, limit }))
    .map((i) => stripKeys<StoredDelivery>(i))
    .sort((a, b) => b.created_at.localeCompare(a.created_at));

/**
 * A step of an account's erasure: each of its endpoints first taken off its events (disabled: no fan-out reaches it
 * again), then its deliveries deleted, then itself; none left, its count item. How many items it found (0: nothing of
 * the account's webhooks is left). A fan-out that read an endpoint's subscribers just before it was disabled may
 * write a delivery after: the next step finds it, unless the endpoint is gone by then (the deliveries worker fails
 * it, and it expires).
 */
export async function eraseWebhooks(userId: string, limit: number): Promise<number> {
  const items = await partition(WEBHOOK.pk(userId));
  const endpoints = items.filter((i) => i.sk !== WEBHOOK.countSk).map((i) => stripKeys<StoredWebhook>(i));
  if (endpoints.length === 0) {
    if (items.length > 0) await documentClient().send(new DeleteCommand({ TableName: table(), Key: webhookCountKey(userId) }));
    return items.length;
  }
  const at = new Date().toISOString();
  for (const w of endpoints) {
    if (!w.disabled) {
      await changeWebhook(w, { ...w, disabled: { reason: 'its account is being erased', at }, updated_at: at, version: w.version + 1 });
      continue;
    }
    const deliveries = await partition(DELIVERY.pk(w.webhook_id), { limit });
    if (deliveries.length > 0) await deleteItems(deliveries.map((d) => deliveryKey(w.webhook_id, String(d.sk))));
    else await deleteWebhook(w);
  }
  return endpoints.length;
}

/** Whether a deck is public now: its `all` search entry stands (entries exist only while a deck is public), read consistently. */
export async function isPublicDeck(deckId: string): Promise<boolean> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: entryKey(deckId, ALL_FACET), ConsistentRead: true, ProjectionExpression: 'pk' }),
  );
  return Item !== undefined;
}
