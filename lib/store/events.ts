/**
 * The repository of events and their entries (items/event.ts). An event is written under the version read (a change
 * that lost a race reads again); an entry is written or withdrawn in one transaction with a check of its event — its
 * rules as read, and its deadline still ahead of the submission's time — so that no entry lands after the deadline
 * or against rules changed since it was checked, whatever the clocks of the functions that wrote them.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, transact, unlessConditionFailed } from './client.ts';
import { EVENT, entryKey, eventKey, type StoredEntry, type StoredEvent } from './items/event.ts';
import { DECKS, tableName } from './tables.ts';

const table = () => tableName(DECKS);
const stripKeys = <T>(item: Record<string, unknown>): T => {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as T;
};

export async function getEvent(eventId: string, consistent = false): Promise<StoredEvent | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: eventKey(eventId), ConsistentRead: consistent }));
  return Item ? stripKeys<StoredEvent>(Item) : undefined;
}

/** Writes a new event (its id never used before) or, `read` given, the next version of it: false when another write came between. */
export async function writeEvent(event: StoredEvent, read?: StoredEvent): Promise<boolean> {
  const written = await unlessConditionFailed(
    documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...eventKey(event.event_id), ...event },
        ...(read
          ? { ConditionExpression: 'version = :read', ExpressionAttributeValues: { ':read': read.version } }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      }),
    ),
  );
  return written !== undefined;
}

/**
 * The check every change of a player's entry is made under: the event's deadline ahead of `now` and, for a
 * submission, its rules those it was checked against.
 */
function stillOpen(event: StoredEvent, now: Date, rules: boolean) {
  const values: Record<string, unknown> = { ':now': now.toISOString() };
  if (rules) values[':rules'] = event.rules_version;
  return {
    ConditionCheck: {
      TableName: table(),
      Key: eventKey(event.event_id),
      ConditionExpression: rules ? 'rules_version = :rules AND deadline > :now' : 'deadline > :now',
      ExpressionAttributeValues: values,
    },
  };
}

/** A player's entry written (replacing theirs), unless the event changed its rules or reached its deadline since `event` was read. */
export const submitEntry = (event: StoredEvent, entry: StoredEntry, now: Date): Promise<'ok' | 'failed' | 'conflict'> =>
  transact([stillOpen(event, now, true), { Put: { TableName: table(), Item: { ...entryKey(event.event_id, entry.user_id), ...entry } } }]);

/** A player's entry withdrawn by them, unless the deadline came ('failed': that, or there was none). */
export const withdrawOwnEntry = (event: StoredEvent, userId: string, now: Date): Promise<'ok' | 'failed' | 'conflict'> =>
  transact([
    stillOpen(event, now, false),
    { Delete: { TableName: table(), Key: entryKey(event.event_id, userId), ConditionExpression: 'attribute_exists(pk)' } },
  ]);

export async function getEntry(eventId: string, userId: string): Promise<StoredEntry | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: entryKey(eventId, userId), ConsistentRead: true }),
  );
  return Item ? stripKeys<StoredEntry>(Item) : undefined;
}

/** Every entry of an event, by user_id (strongly consistent: a list after the deadline holds every entry that landed). */
export async function listEntries(eventId: string): Promise<StoredEntry[]> {
  const out: StoredEntry[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :entry)',
        ExpressionAttributeValues: { ':pk': EVENT.pk(eventId), ':entry': EVENT.entrySk },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) out.push(stripKeys<StoredEntry>(item));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** An entry taken out by the organizer (at any time): whether there was one. */
export async function removeEntry(eventId: string, userId: string): Promise<boolean> {
  const removed = await unlessConditionFailed(
    documentClient().send(
      new DeleteCommand({ TableName: table(), Key: entryKey(eventId, userId), ConditionExpression: 'attribute_exists(pk)' }),
    ),
  );
  return removed !== undefined;
}

/** An entry disqualified with its reason, or reinstated (`reason` null): whether there was one. */
export async function disqualifyEntry(eventId: string, userId: string, reason: string | null, now: Date): Promise<boolean> {
  const done = await unlessConditionFailed(
    documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: entryKey(eventId, userId),
        ConditionExpression: 'attribute_exists(pk)',
        ...(reason === null
          ? { UpdateExpression: 'REMOVE disqualified' }
          : { UpdateExpression: 'SET disqualified = :d', ExpressionAttributeValues: { ':d': { reason, at: now.toISOString() } } }),
      }),
    ),
  );
  return done !== undefined;
}
