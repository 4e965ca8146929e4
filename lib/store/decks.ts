/**
 * The deck items' repository (the item: items/deck.ts). Every write is one transaction with the
 * deck's search entries (items/search-entry.ts) — two when a change of
 * nearly every card and tag overflows one (replaceDeck) — conditional on the deck's `version`
 * (optimistic concurrency) and, where it writes entries, on the folded counts it read (`asRead`:
 * folds.ts says why): no update is lost and search never disagrees with a deck.
 */
import { isDeepStrictEqual } from 'node:util';
import { GetCommand, paginateQuery, paginateScan, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { KeptArchetype } from '#rules/deck-model.ts';
import { getItems } from './bulk.ts';
import { documentClient, MAX_TRANSACT_ITEMS, scanItems, type TransactItem, transact } from './client.ts';
import { DECK, deckAttributes, deckItem, deckKey, deckPk, fromItem, type ListedDeck, type StoredDeck } from './items/deck.ts';
import { likeCountKey } from './items/like-count.ts';
import { entriesOf, entryKey, facetsOf } from './items/search-entry.ts';
import { versionItem } from './items/version.ts';
import { DECKS, indexName, tableName } from './tables.ts';
import { keepVersion } from './versions.ts';
import { forgetViews } from './view-counts.ts';

const table = () => tableName(DECKS);

/** Entry writes that take the search index from `before`'s facets to `after`'s: deletes first, then puts. */
function entryWrites(before: StoredDeck | undefined, after: StoredDeck | undefined): TransactItem[] {
  const next = after ? entriesOf(after) : [];
  const kept = new Set(next.map((e) => e.sk as string));
  const gone = (before ? facetsOf(before) : []).filter((f) => !kept.has(f));
  return [
    ...gone.map((f) => ({ Delete: { TableName: table(), Key: entryKey((before as StoredDeck).id, f) } })),
    ...next.map((Item) => ({ Put: { TableName: table(), Item } })),
  ];
}

export async function getDeck(userId: string, deckId: string): Promise<StoredDeck | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: deckKey(userId, deckId), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
}

/** The items a deck is stored as: the deck item and, while public, its search entries. */
export function deckItems(deck: StoredDeck): { deck: Record<string, unknown>; entries: Record<string, unknown>[] } {
  return { deck: deckItem(deck), entries: entriesOf(deck) };
}

/**
 * Writes a new deck, its first version and its search entries in one transaction, with `also` (an remembered answer)
 * when given: 'ok'; 'failed' (only possible through `also`: its condition); 'conflict' (held by other
 * transactions until the retries ran out).
 */
export async function createDeck(created: StoredDeck, also?: TransactItem): Promise<'ok' | 'failed' | 'conflict'> {
  // Version 1 is kept with it (versions.ts).
  const { item: version, texts_at } = versionItem(created, undefined);
  const deck = { ...created, texts_at };
  const items = deckItems(deck);
  const outcome = await transact([
    { Put: { TableName: table(), Item: items.deck, ConditionExpression: 'attribute_not_exists(pk)' } },
    keepVersion(version),
    ...items.entries.map((Item) => ({ Put: { TableName: table(), Item } })),
    ...(also ? [also] : []),
  ]);
  // Without `also` only a conflict can stop it (its id is new): the caller answers 503.
  if (outcome === 'failed' && !also) throw new Error(`deck ${deck.id} could not be created: its id is taken`);
  return outcome;
}

/**
 * The condition that the stored deck's archetype is still the one read (`deckctl archetypes apply` changes it, and its
 * facet, without a new version): a writer that read another deletes the entries of the facets it read, and would
 * leave the new archetype's entry behind (a private or deleted deck still found by `archetype=`).
 */
function archetypeAsRead(deck: StoredDeck): { condition: string; names: Record<string, string>; values: Record<string, unknown> } {
  const id = deck.archetype?.id;
  const names = { '#arch': 'archetype', '#archId': 'id' };
  return id === undefined
    ? { condition: 'attribute_not_exists(#arch.#archId)', names, values: {} }
    : { condition: '#arch.#archId = :archId', names, values: { ':archId': id } };
}

/**
 * The condition that the stored deck is still the one read: its `version`, its archetype (archetypeAsRead), and the
 * folded counts its entries are about to be written with (a fold that landed since sends the writer back to read again).
 */
function asRead(deck: StoredDeck) {
  const { likes_changes: changes, views_rev: rev } = deck;
  const archetype = archetypeAsRead(deck);
  return {
    ConditionExpression: `version = :version AND ${archetype.condition} AND #views = :views AND #likes = :likes AND ${
      changes === undefined ? 'attribute_not_exists(likes_changes)' : 'likes_changes = :changes'
    } AND ${rev === undefined ? 'attribute_not_exists(views_rev)' : 'views_rev = :rev'}`,
    ExpressionAttributeNames: { '#views': 'views', '#likes': 'likes', ...archetype.names },
    ExpressionAttributeValues: {
      ':version': deck.version,
      ':views': deck.views,
      ':likes': deck.likes,
      ...archetype.values,
      ...(changes === undefined ? {} : { ':changes': changes }),
      ...(rev === undefined ? {} : { ':rev': rev }),
    },
  };
}

/** How many times entries are written again when a fold moved the deck's counts in between (each time, with the counts it left). */
const COUNTS_MOVED_ATTEMPTS = 5;

/** A transaction's condition that the stored deck is still `deck` as read (it writes nothing itself). */
const whileAt = (deck: StoredDeck): TransactItem => ({
  ConditionCheck: { TableName: table(), Key: deckKey(deck.user_id, deck.id), ...asRead(deck) },
});

/**
 * Stores `next` over `current`, and keeps it as a version, if the stored version is still current's; false
 * when someone changed it first. A change of nearly every card and tag at once can take more entry writes than one transaction holds
 * (MAX_TRANSACT_ITEMS): the deck, the deletes and the first puts go first, the remaining puts follow in a
 * second transaction that applies only while the deck is still at `next.version`. Between the two,
 * search misses the deck under some of its new facets; it never shows it under a facet it has left.
 * If the second fails, the error stands (503) and any next write of the deck puts every entry again.
 */
export async function replaceDeck(changed: StoredDeck, current: StoredDeck): Promise<boolean> {
  // The new version is kept in the same transaction as the deck (versions.ts).
  const { item: version, texts_at } = versionItem(changed, current);
  const next = { ...changed, texts_at };
  const writes = [...replaceWrites(next, current, keepVersion(version))];
  const first = await transact(writes.slice(0, MAX_TRANSACT_ITEMS));
  if (first !== 'ok' || writes.length <= MAX_TRANSACT_ITEMS) return first === 'ok';
  // The remaining puts, while the deck is still this version; a fold landing in between changes its
  // counts, and the puts are made again with the counts it holds then.
  let written: StoredDeck = next;
  for (let attempt = 0; attempt < COUNTS_MOVED_ATTEMPTS; attempt++) {
    const rest = entryWrites(current, written).slice(MAX_TRANSACT_ITEMS - LEADING_WRITES);
    if ((await transact([whileAt(written), ...rest])) === 'ok') return true;
    const now = await getDeck(next.user_id, next.id);
    // A newer write of the deck has put its own entries: nothing is left to do.
    if (!now || now.version !== next.version) return true;
    written = now;
  }
  throw Object.assign(new Error(`the entries of deck ${next.id} could not be completed`), { name: 'ThrottlingException' });
}

/** The writes of a change that come before its entries (always in its first transaction): the deck and its version. */
const LEADING_WRITES = 2;

function replaceWrites(next: StoredDeck, current: StoredDeck, version: TransactItem): TransactItem[] {
  // The folded counts are the folds' to write: a PATCH racing a fold must not take them back.
  const { views: _v, likes: _l, likes_changes: _c, views_7d: _w, views_rev: _r, ...attrs } = deckAttributes(next);
  const read = asRead(current);
  const names: Record<string, string> = { ...read.ExpressionAttributeNames };
  const values: Record<string, unknown> = { ...read.ExpressionAttributeValues };
  const sets = Object.entries(attrs).map(([name, value], i) => {
    names[`#a${i}`] = name;
    values[`:a${i}`] = value;
    return `#a${i} = :a${i}`;
  });
  return [
    {
      Update: {
        TableName: table(),
        Key: deckKey(next.user_id, next.id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: read.ConditionExpression,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    version,
    ...entryWrites(current, next),
  ];
}

/**
 * Deletes a deck read at `deck.version` with its search entries, its like counter and its view count;
 * false when the deck changed meanwhile. Its likes go in the background: the store-change worker purges
 * them when it sees the deck item go, and takes out a view count that a later batch brings back
 * (lib/workers/).
 */
export async function deleteDeck(deck: StoredDeck): Promise<boolean> {
  // Its archetype too: the entries it deletes are those of the facets it read.
  const archetype = archetypeAsRead(deck);
  const outcome = await transact([
    {
      Delete: {
        TableName: table(),
        Key: deckKey(deck.user_id, deck.id),
        ConditionExpression: `version = :expected AND ${archetype.condition}`,
        ExpressionAttributeNames: archetype.names,
        ExpressionAttributeValues: { ':expected': deck.version, ...archetype.values },
      },
    },
    ...entryWrites(deck, undefined),
    { Delete: { TableName: table(), Key: likeCountKey(deck.share_slug) } },
    forgetViews(deck.share_slug),
  ]);
  return outcome === 'ok';
}

export interface ListPosition {
  owner_order: string;
  id: string;
}

/** One page of an owner's decks in list order, after `after` when given. */
export async function listDecks(userId: string, limit: number, after?: ListPosition): Promise<{ items: ListedDeck[]; more: boolean }> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      IndexName: indexName('by_owner_order'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': deckPk(userId) },
      ExclusiveStartKey: after && { ...deckKey(userId, after.id), owner_order: after.owner_order },
      ConsistentRead: true,
      // One more than asked: has_more is then exact.
      Limit: limit + 1,
    }),
  );
  return { items: Items.slice(0, limit).map((i) => fromItem(i) as ListedDeck), more: Items.length > limit };
}

/** The query of an owner's deck items (its partition holds nothing else under DECK.sk), read consistently. */
const ownerDecks = (userId: string) => ({
  TableName: table(),
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :deck)',
  ExpressionAttributeValues: { ':pk': deckKey(userId, '').pk, ':deck': deckKey(userId, '').sk },
  ConsistentRead: true,
});

/**
 * One page of an owner's decks whole (guide description and archive included), in id order, after the
 * deck `after` when given: the export's pages (a Query of the owner's partition, limit + 1 items). A
 * Query reads at most 1 MB: a page of large decks may stop short of the limit, and then says there may
 * be more (DynamoDB's LastEvaluatedKey), so that no deck is left out.
 */
export async function decksWhole(userId: string, limit: number, after?: string): Promise<{ items: StoredDeck[]; more: boolean }> {
  const { Items = [], LastEvaluatedKey } = await documentClient().send(
    new QueryCommand({
      ...ownerDecks(userId),
      ExclusiveStartKey: after === undefined ? undefined : deckKey(userId, after),
      Limit: limit + 1,
    }),
  );
  return { items: Items.slice(0, limit).map(fromItem), more: Items.length > limit || (LastEvaluatedKey !== undefined && Items.length > 0) };
}

/** How many decks an owner has (a count of its partition's deck items, read consistently). */
export async function countDecks(userId: string): Promise<number> {
  let count = 0;
  const pages = paginateQuery({ client: documentClient() }, { ...ownerDecks(userId), Select: 'COUNT' });
  for await (const page of pages) count += page.Count ?? 0;
  return count;
}

/** A deck by its share slug (any visibility: the caller decides what may be shown). */
export async function deckBySlug(slug: string): Promise<StoredDeck | undefined> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      IndexName: indexName('by_share_slug'),
      KeyConditionExpression: 'share_slug = :s',
      ExpressionAttributeValues: { ':s': slug },
      Limit: 1,
    }),
  );
  return Items[0] ? fromItem(Items[0]) : undefined;
}

/**
 * Writes a public deck's search entries as this version defines them (after an upgrade that indexes
 * more, such as card entries), only while the deck is still at the version read: 'ok', or 'changed'
 * when a write came first (that write put its own entries). A fold that came first changed only the
 * counts: the entries are written again with the counts it left.
 */
export async function reindexDeck(deck: StoredDeck): Promise<'ok' | 'changed'> {
  let read: StoredDeck | undefined = deck;
  for (let attempt = 0; read && read.version === deck.version && attempt < COUNTS_MOVED_ATTEMPTS; attempt++) {
    if ((await transact([whileAt(read), ...entryWrites(undefined, read)])) === 'ok') return 'ok';
    read = await getDeck(deck.user_id, deck.id);
  }
  return 'changed';
}

/**
 * Keeps a deck's archetype as the rules in use now give it (`deckctl archetypes apply`), with its search entries, only
 * while the deck is still as read: 'ok', or 'changed' when a write or a fold came first (read it again). Its content
 * is unchanged: no version is kept, its version and updated_at stay.
 */
export async function reclassifyDeck(deck: StoredDeck, archetype: KeptArchetype): Promise<'ok' | 'changed'> {
  const read = asRead(deck);
  const outcome = await transact([
    {
      Update: {
        TableName: table(),
        Key: deckKey(deck.user_id, deck.id),
        UpdateExpression: 'SET archetype = :archetype',
        ConditionExpression: read.ConditionExpression,
        ExpressionAttributeNames: read.ExpressionAttributeNames,
        ExpressionAttributeValues: { ...read.ExpressionAttributeValues, ':archetype': archetype },
      },
    },
    ...entryWrites(deck, { ...deck, archetype }),
  ]);
  return outcome === 'ok' ? 'ok' : 'changed';
}

/** Times a deck is read again when a write or a fold came between its read and its reclassification. */
const RECLASSIFY_ATTEMPTS = 5;

/**
 * A deck given the archetype `wanted` works out of it as it is (`deckctl archetypes apply`, the cluster job): read
 * again while a write or a fold comes between — 'reclassified', 'unchanged' (it has it), 'changed' (changed on every
 * attempt: its own writes classify it) or 'gone' (deleted meanwhile).
 */
export async function reclassifyAsRead(
  scanned: StoredDeck,
  wanted: (deck: StoredDeck) => KeptArchetype,
): Promise<'reclassified' | 'unchanged' | 'changed' | 'gone'> {
  let deck: StoredDeck | undefined = scanned;
  for (let attempt = 0; deck && attempt < RECLASSIFY_ATTEMPTS; attempt++) {
    const archetype = wanted(deck);
    if (isDeepStrictEqual(deck.archetype ?? null, archetype)) return 'unchanged';
    if ((await reclassifyDeck(deck, archetype)) === 'ok') return 'reclassified';
    deck = await getDeck(scanned.user_id, scanned.id);
  }
  return deck ? 'changed' : 'gone';
}

/** What reclassifying decks did, counted (`deckctl archetypes apply`, the cluster job). */
export interface Reclassifications {
  reclassified: number;
  unchanged: number;
  /** Deleted meanwhile, or changed on every attempt (its own writes classify it; a next run takes what is left). */
  changed_meanwhile: number;
}

/** Counts what one reclassifyAsRead did. */
export function countReclassified(into: Reclassifications, outcome: Awaited<ReturnType<typeof reclassifyAsRead>>): void {
  if (outcome === 'reclassified') into.reclassified++;
  else if (outcome === 'unchanged') into.unchanged++;
  else into.changed_meanwhile++;
}

/** Deck items a page of a Scan of the decks reads (publicDeckPages, scanDecks). */
export const SCAN_PAGE = 500;

/**
 * Every deck item the filter keeps, page by page (a full Scan: for operators' tools, never a route) — of the share-slug
 * index, which holds the deck items alone, whole (as publicDeckPages): not the table's every search entry, count and
 * version too (a 100,000-deck library is 3.3 million items, 100,000 of them decks), in pages of SCAN_PAGE (a 1 MB page
 * beside 3.3 million items outlived the service's 2.5 s attempt bound on DynamoDB Local: `deckctl views check` after
 * the scale bench's views).
 */
const scanDecks = (
  filter: string,
  values: Record<string, string>,
  projection?: string,
  units?: (n: number) => void,
): AsyncGenerator<Record<string, unknown>> =>
  scanItems(
    {
      TableName: table(),
      IndexName: indexName('by_share_slug'),
      FilterExpression: `begins_with(sk, :deck)${filter ? ` AND ${filter}` : ''}`,
      ProjectionExpression: projection,
      ExpressionAttributeValues: { ':deck': DECK.sk, ...values },
      Limit: SCAN_PAGE,
    },
    units,
  );

/**
 * Every public deck, whole, a page at a time, from one segment of a parallel Scan of the share-slug index (the bulk
 * export: contract §12.2). The index holds the deck items alone (only they have a share_slug), whole (its projection
 * is ALL), so the Scan reads the decks and nothing else of the table — no search entry, like, version or count:
 * billed by the bytes it reads, a page's summed and rounded up to 4 KB, and halved (an index is read eventually
 * consistent). Private and unlisted decks are read and dropped by the filter, and billed. An index is eventually
 * consistent, so a deck made private or deleted a moment ago may still be public there: each page's decks are read
 * again from the table, strongly consistent (BatchGetItem: a unit a deck of up to 4 KB), and only those public
 * there, as they are there, are yielded. `units` hears each call's.
 */

export async function* publicDeckPages(segment: number, segments: number, units?: (n: number) => void): AsyncGenerator<StoredDeck[]> {
  const pages = paginateScan(
    { client: documentClient() },
    {
      TableName: table(),
      IndexName: indexName('by_share_slug'),
      Segment: segment,
      TotalSegments: segments,
      FilterExpression: 'visibility = :public',
      ExpressionAttributeValues: { ':public': 'public' },
      // Pages of SCAN_PAGE deck items (~0.5 MB): each call well inside the service's 2.5 s attempt bound (a 1 MB page of
      // an index beside 3.3 million items outlived it on DynamoDB Local). Billed the same: by the
      // bytes read, a page's rounded up to 4 KB.
      Limit: SCAN_PAGE,
      ReturnConsumedCapacity: 'TOTAL',
    },
  );
  for await (const page of pages) {
    units?.(page.ConsumedCapacity?.CapacityUnits ?? 0);
    const listed = page.Items ?? [];
    if (listed.length === 0) continue;
    const now = await getItems(
      listed.map((item) => ({ pk: item.pk as string, sk: item.sk as string })),
      DECKS,
      true,
      units,
    );
    yield now.flatMap((item) => (item?.visibility === 'public' ? [fromItem(item)] : []));
  }
}

/** Every public deck, whole (for `deckctl search reindex`, the cluster job); `units` hears each page's read units. */
export async function* allPublicDecks(units?: (n: number) => void): AsyncGenerator<StoredDeck> {
  for await (const item of scanDecks('visibility = :public', { ':public': 'public' }, undefined, units)) yield fromItem(item);
}

/** Every stored deck, whole, public or not (for `deckctl archetypes apply`). */
export async function* allDecks(): AsyncGenerator<StoredDeck> {
  for await (const item of scanDecks('', {})) yield fromItem(item);
}

/** Every stored deck's id, owner and code (for `deckctl catalogue diff`). */
export async function* allDeckCodes(): AsyncGenerator<{ id: string; user_id: string; deck_code: string }> {
  for await (const item of scanDecks('', {}, 'deck_id, user_id, deck_code'))
    yield { id: item.deck_id as string, user_id: item.user_id as string, deck_code: item.deck_code as string };
}
