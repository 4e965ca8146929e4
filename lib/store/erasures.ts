/**
 * The repository of erasures (the item: items/erasure.ts): an account's erasure begun, stepped, its keys'
 * closing recorded, and ended. Each write changes the item, and each change is the erasure worker's next
 * step (lib/workers/erasure.ts); ending it deletes it, which asks for nothing more.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, unlessConditionFailed } from './client.ts';
import { type Erasure, erasureKey, erasureOf } from './items/erasure.ts';
import { ACCOUNTS, tableName } from './tables.ts';

const table = () => tableName(ACCOUNTS);
/** Names through placeholders (the item's attribute names are not checked against DynamoDB's reserved words one by one). */
const NAMES = { '#round': 'round' };

/** The account's erasure under way, if any (read consistently: its steps follow each other closely). */
export async function getErasure(userId: string): Promise<Erasure | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: erasureKey(userId), ConsistentRead: true }));
  return Item ? erasureOf(Item) : undefined;
}

/**
 * Begins the account's erasure, or records another request of it (a repeat): `decks` (counted only when
 * it begins) is kept from the first. Either way the item changes, so the worker takes its next step.
 */
export async function requestErasure(userId: string, countDecks: () => Promise<number>, now = new Date()): Promise<Erasure> {
  const decks = (await getErasure(userId))?.decks ?? (await countDecks());
  const at = now.toISOString();
  const { Attributes } = await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: erasureKey(userId),
      UpdateExpression:
        'SET #user = :user, #started = if_not_exists(#started, :at), #requested = :at, #decks = if_not_exists(#decks, :decks) ADD #round :one',
      ExpressionAttributeNames: { ...NAMES, '#user': 'user_id', '#started': 'started_at', '#requested': 'requested_at', '#decks': 'decks' },
      ExpressionAttributeValues: { ':user': userId, ':at': at, ':decks': decks, ':one': 1 },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return erasureOf(Attributes ?? {});
}

/** One more step asked for (the item changes); nothing when the erasure has ended meanwhile. */
export async function stepErasure(userId: string): Promise<void> {
  await unlessConditionFailed(
    documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: erasureKey(userId),
        UpdateExpression: 'ADD #round :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: NAMES,
        ExpressionAttributeValues: { ':one': 1 },
      }),
    ),
  );
}

/** Records that every key of the account was revoked (the first time counts), asking for the next step. */
export async function keysClosed(userId: string, now = new Date()): Promise<void> {
  await unlessConditionFailed(
    documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: erasureKey(userId),
        UpdateExpression: 'SET #closed = if_not_exists(#closed, :at) ADD #round :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { ...NAMES, '#closed': 'keys_closed_at' },
        ExpressionAttributeValues: { ':at': now.toISOString(), ':one': 1 },
      }),
    ),
  );
}

/** Ends the erasure as read at `round`: false when it changed since (a repeat came: its step goes on). */
export async function endErasure(userId: string, round: number): Promise<boolean> {
  const done = await unlessConditionFailed(
    documentClient().send(
      new DeleteCommand({
        TableName: table(),
        Key: erasureKey(userId),
        ConditionExpression: '#round = :round',
        ExpressionAttributeNames: NAMES,
        ExpressionAttributeValues: { ':round': round },
      }),
    ),
  );
  return done !== undefined;
}
