/**
 * The repository of events and their entries (items/event.ts). Every write is one transaction with a check of its
 * event: a change of the event under the version read (and, for what the deadline closes, its deadline still ahead);
 * an entry submitted or withdrawn with its event's deadline still ahead of the time the write is sent and, for a
 * submission, the rules it was checked against — so that no entry lands after the deadline or against rules changed
 * since, whatever the order in which concurrent writes reach the store. An entry and an event carry a mark under
 * their account's key (ENTERED, ORGANIZED), written and deleted with them, by which an account's erasure finds them.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, type TransactItem, transact, unlessConditionFailed } from './client.ts';
import {
  ENTERED,
  EVENT,
  enteredKey,
  entryKey,
  eventKey,
  ORGANIZED,
  organizedKey,
  type StoredEntry,
  type StoredEvent,
} from './items/event.ts';
import { DECKS, tableName } from './tables.ts';

type Outcome = 'ok' | 'failed' | 'conflict';
const table = () => tableName(DECKS);
const stripKeys = <T>(item: Record<string, unknown>): T => {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as T;
};

export async function getEvent(eventId: string, consistent = false): Promise<StoredEvent | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: eventKey(eventId), ConsistentRead: consistent }));
  return Item ? stripKeys<StoredEvent>(Item) : undefined;
}

/** A new event (its id never used before), with its organizer's mark. */
export const createEvent = (event: StoredEvent): Promise<Outcome> =>
  transact([
    { Put: { TableName: table(), Item: { ...eventKey(event.event_id), ...event }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: table(), Item: organizedKey(event.organizer, event.event_id) } },
  ]);

/** What an organizer's change does to the entries: players withdrawn, entries disqualified (a reason) or reinstated (null). */
export interface EntryChanges {
  withdraw: readonly string[];
  disqualify: readonly { user_id: string; reason: string | null }[];
}

const removing = (eventId: string, userId: string): TransactItem[] => [
  { Delete: { TableName: table(), Key: entryKey(eventId, userId), ConditionExpression: 'attribute_exists(pk)' } },
  { Delete: { TableName: table(), Key: enteredKey(userId, eventId) } },
];

/**
 * An organizer's change, whole or not at all: the event's next version (`next`) under the
 * version read — and, when it changes what the deadline closes (`beforeDeadline`), the deadline still ahead of `now` —
 * with each entry withdrawn or disqualified, each still there. 'failed': the event or an entry changed since they were
 * read (read them again to say which).
 */
export function changeEvent(
  read: StoredEvent,
  next: StoredEvent,
  entries: EntryChanges,
  now: Date,
  beforeDeadline: boolean,
): Promise<Outcome> {
  const id = read.event_id;
  const condition = beforeDeadline ? 'version = :read AND deadline > :now' : 'version = :read';
  const values: Record<string, unknown> = { ':read': read.version, ...(beforeDeadline ? { ':now': now.toISOString() } : {}) };
  const items: TransactItem[] = [
    { Put: { TableName: table(), Item: { ...eventKey(id), ...next }, ConditionExpression: condition, ExpressionAttributeValues: values } },
    ...entries.withdraw.flatMap((userId) => removing(id, userId)),
    ...entries.disqualify.map(
      ({ user_id, reason }): TransactItem => ({
        Update: {
          TableName: table(),
          Key: entryKey(id, user_id),
          ConditionExpression: 'attribute_exists(pk)',
          ...(reason === null
            ? { UpdateExpression: 'REMOVE disqualified' }
            : { UpdateExpression: 'SET disqualified = :d', ExpressionAttributeValues: { ':d': { reason, at: now.toISOString() } } }),
        },
      }),
    ),
  ];
  return transact(items);
}

/**
 * The check every change of a player's entry is made under: the event's deadline ahead of `now` and, for a
 * submission, its rules those it was checked against.
 */
function stillOpen(event: StoredEvent, now: Date, rules: boolean): TransactItem {
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

/**
 * A player's entry written (replacing theirs; a disqualification stays: the organizer's alone to lift), unless the
 * event changed its rules or reached its deadline since `event` was read.
 */
export function submitEntry(event: StoredEvent, entry: StoredEntry, now: Date): Promise<Outcome> {
  const { disqualified: _kept, ...fields } = entry;
  const names = Object.keys(fields);
  return transact([
    stillOpen(event, now, true),
    {
      Update: {
        TableName: table(),
        Key: entryKey(event.event_id, entry.user_id),
        UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
        ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:f${i}`, fields[n as keyof typeof fields]])),
      },
    },
    { Put: { TableName: table(), Item: enteredKey(entry.user_id, event.event_id) } },
  ]);
}

/**
 * A player's entry withdrawn by them, unless the deadline came or the organizer disqualified it (the organizer's alone
 * to withdraw or reinstate then); 'failed': one of those, or there was none.
 */
export function withdrawOwnEntry(event: StoredEvent, userId: string, now: Date): Promise<Outcome> {
  const [entry, mark] = removing(event.event_id, userId) as [TransactItem, TransactItem];
  const kept = {
    ...entry,
    Delete: { ...entry.Delete, ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(disqualified)' },
  };
  return transact([stillOpen(event, now, false), kept as TransactItem, mark]);
}

export async function getEntry(eventId: string, userId: string): Promise<StoredEntry | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: entryKey(eventId, userId), ConsistentRead: true }),
  );
  return Item ? stripKeys<StoredEntry>(Item) : undefined;
}

/** A page of an event's entries from a user_id on (after `after`), by user_id; strongly consistent. */
async function entriesPage(eventId: string, limit: number | undefined, after?: string): Promise<{ entries: StoredEntry[]; last?: string }> {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :entry)',
      ExpressionAttributeValues: { ':pk': EVENT.pk(eventId), ':entry': EVENT.entrySk },
      ConsistentRead: true,
      Limit: limit,
      ...(after ? { ExclusiveStartKey: entryKey(eventId, after) } : {}),
    }),
  );
  const entries = (page.Items ?? []).map((item) => stripKeys<StoredEntry>(item));
  return { entries, last: page.LastEvaluatedKey ? entries.at(-1)?.user_id : undefined };
}

/** Every entry of an event, by user_id (strongly consistent: a list after the deadline holds every entry that landed). */
export async function listEntries(eventId: string): Promise<StoredEntry[]> {
  const out: StoredEntry[] = [];
  let after: string | undefined;
  do {
    const page = await entriesPage(eventId, undefined, after);
    out.push(...page.entries);
    after = page.last;
  } while (after);
  return out;
}

/** The events an account has entries in, a page of them (its erasure's sweep). */
export async function enteredPage(userId: string, limit: number): Promise<string[]> {
  return marks(ENTERED.pk(userId), limit);
}

/** The events an account organizes, a page of them (its erasure's sweep). */
export async function organizedPage(userId: string, limit: number): Promise<string[]> {
  return marks(ORGANIZED.pk(userId), limit);
}

async function marks(pk: string, limit: number): Promise<string[]> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({ TableName: table(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, Limit: limit }),
  );
  return Items.map((i) => i.sk as string);
}

/** The deadline of an event its organizer's erasure is taking away: before any write's time. */
const CLOSED = new Date(0).toISOString();

/** An entry taken out by its player's erasure, locked or not, with its mark (none: only the mark). */
export async function eraseEntry(eventId: string, userId: string): Promise<void> {
  const outcome = await transact(removing(eventId, userId));
  if (outcome === 'failed') await transact([{ Delete: { TableName: table(), Key: enteredKey(userId, eventId) } }]);
  if (outcome === 'conflict') throw new Error(`event ${eventId}: its entry of ${userId} is held by other writes; retried with the step`);
}

/**
 * A step of an organizer's erasure of one of its events: up to `limit` of its entries deleted with their players'
 * marks; once none is left, the event and its mark. How many items it found.
 */
export async function eraseEvent(userId: string, eventId: string, limit: number): Promise<number> {
  // Closed first, for good (its deadline the epoch's start): no submission lands after the entries are read.
  await unlessConditionFailed(
    documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: eventKey(eventId),
        UpdateExpression: 'SET deadline = :closed',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':closed': CLOSED },
      }),
    ),
  );
  const { entries } = await entriesPage(eventId, limit);
  for (const entry of entries) await eraseEntry(eventId, entry.user_id);
  if (entries.length > 0) return entries.length;
  await transact([
    { Delete: { TableName: table(), Key: eventKey(eventId) } },
    { Delete: { TableName: table(), Key: organizedKey(userId, eventId) } },
  ]);
  return 1;
}
