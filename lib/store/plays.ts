/**
 * What the library plays (contract §10.3): the figures kept from the decks table's changes (items/plays.ts)
 * and read by the meta routes (`/api/v1/meta/…`). The store-change worker hands over the decks a batch changed; each deck's
 * figures are brought from what it adds now (its stored contribution) to what it adds as it is now (read
 * again: the record only says that it changed), the decks of a batch summed before anything is written —
 * a burst of public creates makes one write an item a chunk, not one a deck. Each chunk is one
 * transaction with the decks' contributions, each on the condition that it is still the one read, so a
 * change is applied once however often its record comes back (retries, repeats). At rest, every figure
 * is what a recount of the public decks makes (`deckctl meta recount`: plays-recount.ts).
 * `distinct=code` (contract §11.5): each code's count of public decks is kept as a tag's is (read, then written on
 * the condition that it is still what was read), and a code whose count leaves or reaches 0 moves its cards in the
 * distinct twins of its two pools, in the same transaction (rules/plays.ts addDistinct).
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  addChange,
  addDistinct,
  type Contribution,
  type Counts,
  codeOf,
  contributionOf,
  copyDelta,
  type Delta,
  emptyDelta,
  nonZero,
  sameContribution,
  sumPools,
} from '#rules/plays.ts';
import { TOP_TAGS } from '#rules/plays-shown.ts';
import { getItems } from './bulk.ts';
import { documentClient, MAX_TRANSACT_ITEMS, type TransactItem, transact } from './client.ts';
import { deckKey } from './items/deck.ts';
import {
  ATTR,
  COUNTED_IN_FACTIONS,
  COUNTED_IN_ITEMS,
  cardsKey,
  contributionFrom,
  contributionKey,
  factionsKey,
  inFactionsOf,
  poolOf,
  type StoredContribution,
  TAG_BOARD,
  TAGS_INDEX,
  tagFigureOf,
} from './items/plays.ts';
import { DECKS, tableName } from './tables.ts';

const table = () => tableName(DECKS);

/** Most decks a transaction takes, and most distinct cards of one pool it writes (an update expression holds at most 4 KB). */
const CHUNK_DECKS = 20;
const CHUNK_CARDS = 100;
/**
 * A chunk whose contributions or tags changed under it (a record of the same deck, or another deck of the same
 * tag, handled at once elsewhere) is read again this often, after a short random wait, before the batch is
 * handed back for the stream's retry.
 */
const REREADS = 6;

interface Change {
  deckId: string;
  before: StoredContribution;
  after: Contribution | null;
}

/** Each deck's change: what it adds as stored, and as it is now (its item and its contribution, read in bulk). */
async function changesOf(decks: readonly { userId: string; deckId: string }[]): Promise<Change[]> {
  const items = await getItems(decks.flatMap(({ userId, deckId }) => [deckKey(userId, deckId), contributionKey(deckId)]));
  return decks.map(({ deckId }, i) => ({
    deckId,
    before: contributionFrom(items[2 * i + 1]),
    after: contributionOf(items[2 * i] as Parameters<typeof contributionOf>[0] | undefined),
  }));
}

/** `ADD` of each figure, named and valued by placeholders; and `as_of` set. */
function adds(key: Record<string, string>, figures: Map<string, number>, now: string): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now };
  const parts = [...figures].map(([name, n], i) => {
    names[`#f${i}`] = name;
    values[`:f${i}`] = n;
    return `#f${i} :f${i}`;
  });
  return {
    Update: {
      TableName: table(),
      Key: key,
      UpdateExpression: `ADD ${parts.join(', ')} SET as_of = :now`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * A count's item (a tag's, a code's) brought from the decks it had (read) to those it has now, on the condition
 * that it still has what was read: written as `item`, or deleted at 0 (no item is kept for what no public deck holds).
 */
function countWrite(key: Record<string, string>, item: Record<string, unknown>, had: number, now: number): TransactItem {
  const condition =
    had === 0
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : { ConditionExpression: 'decks = :had', ExpressionAttributeValues: { ':had': had } };
  return now > 0
    ? { Put: { TableName: table(), Item: { ...key, ...item }, ...condition } }
    : { Delete: { TableName: table(), Key: key, ...condition } };
}

/** The decks of each key's item as stored (read consistently, in bulk: what its write is conditional on). */
async function countsNow(keys: Iterable<string>, keyOf: (key: string) => Record<string, string>): Promise<Map<string, number>> {
  const asked = [...keys];
  const items = await getItems(asked.map(keyOf));
  return new Map(asked.map((key, i) => [key, Number(items[i]?.decks ?? 0)]));
}

/**
 * The writes of a summed delta: each card pool (distinct ones too), the factions' item (the count of public decks and
 * each counted figure kept in it, ADDed), and each counted figure kept an item a key (from the decks `had` says each
 * has now).
 */
export function figureWrites(delta: Delta, now: string, had: Partial<Counts> = {}): TransactItem[] {
  const writes: TransactItem[] = [];
  for (const [pool, s] of delta.pools) {
    const figures = new Map<string, number>([['decks', s.decks]]);
    for (const [id, c] of s.cards) {
      figures.set(ATTR.cardDecks(id), c.decks);
      figures.set(ATTR.cardCopies(id), c.copies);
    }
    writes.push(adds(cardsKey(pool), figures, now));
  }
  const factions = new Map<string, number>([['decks', delta.decks]]);
  for (const [name, { attr }] of COUNTED_IN_FACTIONS) for (const [key, n] of delta.counts[name]) factions.set(`${attr}${key}`, n);
  if (delta.decks !== 0 || factions.size > 1) writes.push(adds(factionsKey(), factions, now));
  for (const [name, store] of COUNTED_IN_ITEMS)
    for (const [key, n] of delta.counts[name]) {
      const before = had[name]?.get(key) ?? 0;
      const decks = Math.max(0, before + n);
      writes.push(countWrite(store.key(key), store.item(key, decks), before, decks));
    }
  return writes;
}

/** A deck's contribution as written with its change, on the condition that it is still the one read. */
function contributionWrite({ deckId, before, after }: Change): TransactItem {
  const condition =
    before.rev === 0
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': before.rev } };
  return after
    ? { Put: { TableName: table(), Item: { ...contributionKey(deckId), ...after, rev: before.rev + 1 }, ...condition } }
    : { Delete: { TableName: table(), Key: contributionKey(deckId), ...condition } };
}

/**
 * The most items a chunk's transaction writes: each deck's contribution, each pool and its distinct twin, the
 * factions' item, and each key of a counted figure kept an item a key (a tag's, a code's).
 */
const itemsWritten = (decks: number, d: Delta) =>
  COUNTED_IN_ITEMS.reduce((n, [name]) => n + d.counts[name].size, decks + 2 * d.pools.size + 1);

/**
 * Changes in chunks a transaction can take: at most CHUNK_DECKS decks, CHUNK_CARDS distinct cards a pool and
 * MAX_TRANSACT_ITEMS items in all (a deck's change alone writes at most 2 pools, 20 tags and its contribution).
 */
function chunked(changes: Change[]): Change[][] {
  const chunks: Change[][] = [];
  let chunk: Change[] = [];
  let delta = emptyDelta();
  for (const change of changes) {
    const next = addChange(copyDelta(delta), change.before.contribution, change.after);
    const wide =
      [...next.pools.values()].some((s) => s.cards.size > CHUNK_CARDS) || itemsWritten(chunk.length + 1, next) > MAX_TRANSACT_ITEMS;
    if (chunk.length > 0 && (chunk.length >= CHUNK_DECKS || wide)) {
      chunks.push(chunk);
      chunk = [];
      delta = addChange(emptyDelta(), change.before.contribution, change.after);
    } else delta = next;
    chunk.push(change);
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

/** Writes a chunk's changes: 'ok', or 'stale' when a contribution or a tag changed since it was read. */
async function writeChunk(chunk: Change[]): Promise<'ok' | 'stale'> {
  const summed = nonZero(chunk.reduce((d, c) => addChange(d, c.before.contribution, c.after), emptyDelta()));
  const had: Partial<Counts> = Object.fromEntries(
    await Promise.all(COUNTED_IN_ITEMS.map(async ([name, store]) => [name, await countsNow(summed.counts[name].keys(), store.key)])),
  );
  // A code's contribution: any of the chunk's decks of it (before or after its change).
  const byCode = new Map<string, Contribution>();
  for (const c of chunk) for (const side of [c.before.contribution, c.after]) if (side) byCode.set(codeOf(side), side);
  const delta = nonZero(addDistinct(summed, had.codes ?? new Map(), (code) => byCode.get(code)));
  const outcome = await transact([...chunk.map(contributionWrite), ...figureWrites(delta, new Date().toISOString(), had)]);
  if (outcome === 'conflict') throw new Error('plays figures: the transaction kept conflicting');
  return outcome === 'ok' ? 'ok' : 'stale';
}

/** Brings the figures up to these decks as they are now (the store-change worker's work for changed decks). */
export async function applyPlays(decks: readonly { userId: string; deckId: string }[]): Promise<void> {
  let pending = [...decks];
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > REREADS) throw new Error('plays figures: contributions or tags kept changing under their changes');
    if (attempt > 0) await new Promise((r) => setTimeout(r, Math.random() * 20 * 2 ** attempt));
    const changes = (await changesOf(pending)).filter((c) => !sameContribution(c.before.contribution, c.after));
    const stale: typeof pending = [];
    for (const chunk of chunked(changes))
      if ((await writeChunk(chunk)) === 'stale') stale.push(...pending.filter((d) => chunk.some((c) => c.deckId === d.deckId)));
    pending = stale;
  }
}

// --- reads ------------------------------------------------------------------------------------------------
/** A card pool's figures (one GetItem, whatever the library's size). */
export async function readPool(pool: string) {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: cardsKey(pool) }));
  return poolOf(Item);
}

/** Card pools' figures summed (rules/plays.ts poolsAsked: 5 at most; their GetItems at once). */
export const readPools = async (pools: readonly string[]) => sumPools(await Promise.all(pools.map(readPool)));

/** The count of public decks and every counted figure kept in the factions' item (one GetItem, whatever the library's size). */
export async function readCounts() {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: factionsKey() }));
  return { decks: Number(Item?.decks ?? 0), as_of: (Item?.as_of as string | undefined) ?? null, counts: inFactionsOf(Item) };
}

/**
 * The pairs, the count of public decks and the TOP_TAGS most used tags, in order (readCounts, and one Query of the
 * index of tags by rank: TOP_TAGS small items, whatever the number of tags).
 */
export async function readFactions() {
  const [counts, tags] = await Promise.all([
    readCounts(),
    documentClient().send(
      new QueryCommand({
        TableName: table(),
        IndexName: TAGS_INDEX,
        KeyConditionExpression: 'tag_board = :b',
        ExpressionAttributeValues: { ':b': TAG_BOARD },
        Limit: TOP_TAGS,
      }),
    ),
  ]);
  return { ...counts, tags: (tags.Items ?? []).map(tagFigureOf) };
}
