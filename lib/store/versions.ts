/**
 * The versions of a deck (contract §9.2; the item: items/version.ts). Each is written by the
 * transaction that writes the deck (decks.ts), so a deck is never at a version that was not kept.
 * Reading a page is one Query of limit + 1 items; a version whole is one GetItem, and one more for each
 * older version its unchanged texts are held by (at most two). Dropping versions past the last 100 and
 * purging a deleted deck's versions is the store-change worker's (lib/workers/store-changes.ts).
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Archive } from '#rules/deck-model.ts';
import { deleteItems, purgePartition } from './bulk.ts';
import { documentClient, type TransactItem, unlessConditionFailed } from './client.ts';
import {
  fromVersionItem,
  type StoredVersion,
  textHolders,
  VERSION,
  VERSIONS_KEPT,
  type VersionItem,
  type VersionSummary,
  versionKey,
  versionSk,
  versionsPk,
} from './items/version.ts';
import { DECKS, tableName } from './tables.ts';

const table = () => tableName(DECKS);

/** The write that keeps a version (in its deck's transaction): once, never over another. */
export const keepVersion = (item: Record<string, unknown>): TransactItem => ({
  Put: { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
});

/** Versions that lists show: not retired (kept only for the texts a newer version reads), and, for the public, not private. */
const shown = (publicOnly: boolean) => ({
  FilterExpression: `attribute_not_exists(retired)${publicOnly ? ' AND visibility <> :private' : ''}`,
  ...(publicOnly ? { ExpressionAttributeValues: { ':private': 'private' } } : {}),
});

/**
 * One page of a deck's versions, newest first, older than `before` when given. One Query of limit + 1
 * items; a further one only when the filter dropped some (retired versions, which are older than every
 * shown one, or the private versions the public does not see) and the page is not full.
 */
export async function listVersions(
  userId: string,
  deckId: string,
  limit: number,
  options: { before?: number; publicOnly?: boolean } = {},
): Promise<{ items: VersionSummary[]; more: boolean }> {
  const filter = shown(options.publicOnly ?? false);
  const found: VersionSummary[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression:
          options.before === undefined ? 'pk = :pk AND begins_with(sk, :v)' : 'pk = :pk AND sk BETWEEN :v AND :before',
        ...filter,
        ExpressionAttributeValues: {
          ':pk': versionsPk(userId, deckId),
          ':v': VERSION.sk,
          ...(options.before === undefined ? {} : { ':before': versionSk(options.before - 1) }),
          ...filter.ExpressionAttributeValues,
        },
        ScanIndexForward: false,
        ConsistentRead: true,
        ExclusiveStartKey: start,
        // One more than asked: has_more is then exact.
        Limit: limit + 1 - found.length,
      }),
    );
    found.push(...Items.map((i) => fromVersionItem(i).summary));
    start = LastEvaluatedKey;
  } while (start && found.length <= limit);
  return { items: found.slice(0, limit), more: found.length > limit };
}

async function getVersionItem(userId: string, deckId: string, version: number): Promise<VersionItem | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: versionKey(userId, deckId, version), ConsistentRead: true }),
  );
  return Item ? fromVersionItem(Item) : undefined;
}

/** A kept version whole, its texts read from the versions that hold them; undefined when it is not kept. */
export async function readVersion(userId: string, deckId: string, version: number): Promise<StoredVersion | undefined> {
  const found = await getVersionItem(userId, deckId, version);
  if (!found || found.retired) return undefined;
  const holders = new Map<number, VersionItem | undefined>([[version, found]]);
  await Promise.all(
    textHolders(found).map(async (at) => {
      holders.set(at, await getVersionItem(userId, deckId, at));
    }),
  );
  const text = <T>(held: T | { at: number }, of: (v: VersionItem) => T | { at: number }): T => {
    if (typeof held !== 'object' || held === null || !('at' in held)) return held as T;
    const holder = holders.get((held as { at: number }).at);
    const value = holder && of(holder);
    // The worker keeps every version whose texts a kept version reads (trimVersions): a miss is a fault.
    if (value === undefined || (typeof value === 'object' && value !== null && 'at' in value))
      throw new Error(`version ${version} of deck ${deckId} reads texts no version holds`);
    return value as T;
  };
  const description = text(found.description, (v) => v.description);
  const archive = text<Archive>(found.archive, (v) => v.archive);
  const { guide, ...rest } = found.deck;
  return { ...rest, guide: guide && { ...guide, description }, archive };
}

/**
 * Drops the version that `newest` pushed out of the last VERSIONS_KEPT, and any retired version no kept
 * version reads any more; a version whose texts the oldest kept one still reads is retired instead
 * (hidden from lists and reads). Runs for each version written past the first VERSIONS_KEPT (the
 * store-change worker's filter picks those: TRIM_DUE), in order: each run drops one, so the
 * number kept stays at VERSIONS_KEPT. Idempotent.
 */
export async function trimVersions(userId: string, deckId: string, newest: number): Promise<void> {
  const out = newest - VERSIONS_KEPT;
  if (out < 1) return;
  const [dropped, next] = await Promise.all([getVersionItem(userId, deckId, out), getVersionItem(userId, deckId, out + 1)]);
  // The version after `out` is gone only if a later trim ran first (a stream retried out of order): the
  // oldest one left above `out` then reads every text a kept version reads that is held at or below it.
  const oldest = next ?? (await oldestAbove(userId, deckId, out));
  const needed = new Set(oldest ? textHolders(oldest) : []);
  // Retired versions no kept version reads any more go first (each was retired as it left the window),
  // then the version itself: a run interrupted in between finds it again and finishes.
  const unread = (versions: number[]) => versions.filter((v) => !needed.has(v)).map((v) => versionKey(userId, deckId, v));
  await deleteItems(unread(dropped ? textHolders(dropped) : []));
  await deleteItems(unread([out]));
  if (needed.has(out))
    await unlessConditionFailed(
      documentClient().send(
        new UpdateCommand({
          TableName: table(),
          Key: versionKey(userId, deckId, out),
          UpdateExpression: 'SET retired = :yes',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':yes': true },
        }),
      ),
    );
}

/** The oldest version item above `version`, if any: one Query of one item. */
async function oldestAbove(userId: string, deckId: string, version: number): Promise<VersionItem | undefined> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND sk > :sk',
      ExpressionAttributeValues: { ':pk': versionsPk(userId, deckId), ':sk': versionSk(version) },
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  return Items[0] ? fromVersionItem(Items[0]) : undefined;
}

/** Every version of a deleted deck, a page at a time. */
export const purgeVersions = (userId: string, deckId: string): Promise<number> =>
  purgePartition(versionsPk(userId, deckId), 'pk, sk', (i) => [{ pk: i.pk as string, sk: i.sk as string }]);
