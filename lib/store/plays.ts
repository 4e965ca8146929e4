/**
 * What the library plays (contract §10.3): the figures kept from the decks table's changes (items/plays.ts)
 * and read by the meta routes (`/api/v1/meta/…`). The store-change worker hands over the decks a batch changed; each deck's
 * figures are brought from what it adds now (its stored contribution) to what it adds as it is now (read
 * again: the record only says that it changed), the decks of a batch summed before anything is written —
 * a burst of public creates makes one write an item a chunk, not one a deck. Each chunk is one
 * transaction with the decks' contributions, each on the condition that it is still the one read, so a
 * change is applied once however often its record comes back (retries, repeats). At rest, every figure
 * is what a recount of the public decks makes (`deckctl meta recount`: recountPlays).
 * `distinct=code` (contract §11.5): each code's count of public decks is kept as a tag's is (read, then written on
 * the condition that it is still what was read), and a code whose count leaves or reaches 0 moves its cards in the
 * distinct twins of its two pools, in the same transaction (rules/plays.ts addDistinct).
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  addChange,
  addDistinct,
  type Contribution,
  codeOf,
  contributionOf,
  copyDelta,
  type Delta,
  emptyDelta,
  emptyPool,
  nonZero,
  recount,
  sameContribution,
  sumPools,
  TOP_TAGS,
} from '#rules/plays.ts';
import { atMost } from './at-most.ts';
import { documentClient, MAX_TRANSACT_ITEMS, scanItems, type TransactItem, transact } from './client.ts';
import { allPublicDecks } from './decks.ts';
import { deckKey } from './items/deck.ts';
import {
  ATTR,
  cardsKey,
  codeKey,
  contributionFrom,
  contributionKey,
  factionsKey,
  figuresUnder,
  LEGACY_TAG_SHARDS,
  PLAYS,
  PLAYS_CODE,
  PLAYS_OF,
  PLAYS_TAG,
  poolOf,
  type StoredContribution,
  TAG_BOARD,
  TAGS_INDEX,
  tagFigureOf,
  tagItem,
  tagKey,
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

/** A deck's change: what it adds as stored, and as it is now. */
async function changeOf(userId: string, deckId: string): Promise<Change> {
  const [deck, stored] = await Promise.all([
    documentClient().send(new GetCommand({ TableName: table(), Key: deckKey(userId, deckId), ConsistentRead: true })),
    documentClient().send(new GetCommand({ TableName: table(), Key: contributionKey(deckId), ConsistentRead: true })),
  ]);
  return {
    deckId,
    before: contributionFrom(stored.Item),
    after: contributionOf(deck.Item as Parameters<typeof contributionOf>[0] | undefined),
  };
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

/** The decks of each key's item as stored (read consistently: what its write is conditional on). */
async function countsNow(keys: Iterable<string>, keyOf: (key: string) => Record<string, string>): Promise<Map<string, number>> {
  const now = new Map<string, number>();
  await atMost(8, keys, async (key) => {
    const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: keyOf(key), ConsistentRead: true }));
    now.set(key, Number(Item?.decks ?? 0));
  });
  return now;
}

/**
 * The writes of a summed delta: each card pool (distinct ones too), the pairs and the count of public decks, each
 * tag and each code (from the decks they have now).
 */
export function figureWrites(
  delta: Delta,
  now: string,
  tagDecks: ReadonlyMap<string, number>,
  codeDecks: ReadonlyMap<string, number> = new Map(),
): TransactItem[] {
  const writes: TransactItem[] = [];
  for (const [pool, s] of delta.pools) {
    const figures = new Map<string, number>([['decks', s.decks]]);
    for (const [id, c] of s.cards) {
      figures.set(ATTR.cardDecks(id), c.decks);
      figures.set(ATTR.cardCopies(id), c.copies);
    }
    writes.push(adds(cardsKey(pool), figures, now));
  }
  if (delta.decks !== 0 || delta.pairs.size > 0)
    writes.push(
      adds(factionsKey(), new Map([['decks', delta.decks], ...[...delta.pairs].map(([p, n]) => [ATTR.pair(p), n] as const)]), now),
    );
  for (const [tag, n] of delta.tags) {
    const had = tagDecks.get(tag) ?? 0;
    const decks = Math.max(0, had + n);
    writes.push(countWrite(tagKey(tag), tagItem(tag, decks), had, decks));
  }
  for (const [code, n] of delta.codes) {
    const had = codeDecks.get(code) ?? 0;
    const decks = Math.max(0, had + n);
    writes.push(countWrite(codeKey(code), { decks }, had, decks));
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
 * factions' item, each tag, each code.
 */
const itemsWritten = (decks: number, d: Delta) => decks + 2 * d.pools.size + 1 + d.tags.size + d.codes.size;

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
  const [tags, codes] = await Promise.all([countsNow(summed.tags.keys(), tagKey), countsNow(summed.codes.keys(), codeKey)]);
  // A code's contribution: any of the chunk's decks of it (before or after its change).
  const byCode = new Map<string, Contribution>();
  for (const c of chunk) for (const side of [c.before.contribution, c.after]) if (side) byCode.set(codeOf(side), side);
  const delta = nonZero(addDistinct(summed, codes, (code) => byCode.get(code)));
  const outcome = await transact([...chunk.map(contributionWrite), ...figureWrites(delta, new Date().toISOString(), tags, codes)]);
  if (outcome === 'conflict') throw new Error('plays figures: the transaction kept conflicting');
  return outcome === 'ok' ? 'ok' : 'stale';
}

/** Brings the figures up to these decks as they are now (the store-change worker's work for changed decks). */
export async function applyPlays(decks: readonly { userId: string; deckId: string }[]): Promise<void> {
  let pending = [...decks];
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > REREADS) throw new Error('plays figures: contributions or tags kept changing under their changes');
    if (attempt > 0) await new Promise((r) => setTimeout(r, Math.random() * 20 * 2 ** attempt));
    const changes: Change[] = [];
    await atMost(4, pending, async ({ userId, deckId }) => {
      const change = await changeOf(userId, deckId);
      if (!sameContribution(change.before.contribution, change.after)) changes.push(change);
    });
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

/**
 * The pairs, the count of public decks and the TOP_TAGS most used tags, in order (one GetItem, and one Query
 * of the index of tags by rank: TOP_TAGS small items, whatever the number of tags).
 */
export async function readFactions() {
  const [factions, tags] = await Promise.all([
    documentClient().send(new GetCommand({ TableName: table(), Key: factionsKey() })),
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
  return {
    decks: Number(factions.Item?.decks ?? 0),
    as_of: (factions.Item?.as_of as string | undefined) ?? null,
    pairs: figuresUnder(factions.Item, 'p:'),
    tags: (tags.Items ?? []).map(tagFigureOf),
  };
}

// --- recount ----------------------------------------------------------------------------------------------
const scanPrefix = (prefix: string): AsyncGenerator<Record<string, unknown>> =>
  scanItems({
    TableName: table(),
    FilterExpression: 'begins_with(pk, :p)',
    ExpressionAttributeValues: { ':p': prefix },
    ConsistentRead: true,
  });

/** Every figure as stored, in a delta's shape (zeros left out), the stored contributions by deck, and the keys of the earlier tag shards. */
async function storedFigures(): Promise<{
  figures: Delta;
  contributions: Map<string, StoredContribution>;
  legacy: Record<string, string>[];
}> {
  const figures = emptyDelta();
  const contributions = new Map<string, StoredContribution>();
  const legacy: Record<string, string>[] = [];
  for await (const item of scanPrefix(PLAYS.prefix)) {
    if (item.pk === cardsKey('').pk) {
      const s = poolOf(item);
      figures.pools.set(String(item.sk), { decks: s.decks, cards: s.cards });
    } else if (item.pk === factionsKey().pk) {
      figures.decks = Number(item.decks ?? 0);
      for (const [pair, n] of figuresUnder(item, 'p:')) figures.pairs.set(pair, n);
    } else if (item.pk === LEGACY_TAG_SHARDS) legacy.push({ pk: String(item.pk), sk: String(item.sk) });
  }
  for await (const item of scanPrefix(PLAYS_TAG.prefix)) {
    const [tag, n] = tagFigureOf(item);
    figures.tags.set(tag, n);
  }
  for await (const item of scanPrefix(PLAYS_CODE.prefix))
    figures.codes.set(String(item.pk).slice(PLAYS_CODE.prefix.length), Number(item.decks ?? 0));
  for await (const item of scanPrefix(PLAYS_OF.prefix))
    contributions.set(String(item.pk).slice(PLAYS_OF.prefix.length), contributionFrom(item));
  return { figures: nonZero(figures), contributions, legacy };
}

/** What differs between two figure sets, a line each: `<figure>: <stored> → <recounted>`. */
export function drift(stored: Delta, counted: Delta): string[] {
  const lines: string[] = [];
  const compare = (name: string, a: number | undefined, b: number | undefined) => {
    if ((a ?? 0) !== (b ?? 0)) lines.push(`${name}: ${a ?? 0} → ${b ?? 0}`);
  };
  const keys = <K>(a: ReadonlyMap<K, unknown> | undefined, b: ReadonlyMap<K, unknown> | undefined) =>
    new Set([...(a?.keys() ?? []), ...(b?.keys() ?? [])]);
  compare('public decks', stored.decks, counted.decks);
  for (const pool of keys(stored.pools, counted.pools)) {
    const [a, b] = [stored.pools.get(pool), counted.pools.get(pool)];
    compare(`cards ${pool}: decks`, a?.decks, b?.decks);
    for (const id of keys(a?.cards, b?.cards)) {
      compare(`cards ${pool}: ${id} decks`, a?.cards.get(id)?.decks, b?.cards.get(id)?.decks);
      compare(`cards ${pool}: ${id} copies`, a?.cards.get(id)?.copies, b?.cards.get(id)?.copies);
    }
  }
  for (const pair of keys(stored.pairs, counted.pairs)) compare(`pair ${pair}`, stored.pairs.get(pair), counted.pairs.get(pair));
  for (const tag of keys(stored.tags, counted.tags)) compare(`tag ${JSON.stringify(tag)}`, stored.tags.get(tag), counted.tags.get(tag));
  for (const code of keys(stored.codes, counted.codes)) compare(`code ${code}`, stored.codes.get(code), counted.codes.get(code));
  return lines;
}

/**
 * Recounts every figure from the public decks (`deckctl meta recount`) and, with `write`, replaces what is
 * stored by it: the figures' items whole, each tag's item (a tag no public deck holds: deleted), each deck's
 * contribution, and the tag shards of earlier versions deleted. Returns the drift it found (and corrected).
 * Run while the library is quiet: a change landing during it is the worker's to apply after.
 */
export async function recountPlays(write: boolean): Promise<{ decks: number; drift: string[]; unreadable: string[] }> {
  const counted = new Map<string, Contribution | null>();
  const unreadable: string[] = [];
  for await (const deck of allPublicDecks()) {
    // A deck the store holds but the service could not have written (its code does not parse) counts nothing, and is named.
    try {
      counted.set(deck.id, contributionOf(deck));
    } catch (e) {
      counted.set(deck.id, null);
      unreadable.push(`deck ${deck.id} of user ${deck.user_id}: ${(e as Error).message}; not counted (repair or delete it)`);
    }
  }
  const figures = recount(counted.values());
  const { figures: stored, contributions, legacy } = await storedFigures();
  const lines = drift(stored, figures);
  for (const [deckId, { contribution }] of contributions)
    if (!sameContribution(contribution, counted.get(deckId) ?? null)) lines.push(`contribution of deck ${deckId}`);
  for (const [deckId, contribution] of counted)
    if (!contributions.has(deckId) && contribution) lines.push(`contribution of deck ${deckId} (missing)`);
  if (legacy.length > 0) lines.push(`the ${legacy.length} tag shards of an earlier version (${LEGACY_TAG_SHARDS}): removed`);
  if (write && lines.length > 0) {
    const now = new Date().toISOString();
    const put = async (Item: Record<string, unknown>) => void (await documentClient().send(new PutCommand({ TableName: table(), Item })));
    const remove = async (Key: Record<string, string>) =>
      void (await documentClient().send(new DeleteCommand({ TableName: table(), Key })));
    // Every figure item whole: those of pools no longer counted are emptied.
    const pools = new Set([...stored.pools.keys(), ...figures.pools.keys()]);
    await atMost(8, pools, async (pool) => {
      const s = figures.pools.get(pool) ?? emptyPool();
      const cards = [...s.cards].flatMap(([id, c]) => [
        [ATTR.cardDecks(id), c.decks],
        [ATTR.cardCopies(id), c.copies],
      ]);
      await put({ ...cardsKey(pool), decks: s.decks, as_of: now, ...Object.fromEntries(cards) });
    });
    await put({
      ...factionsKey(),
      decks: figures.decks,
      as_of: now,
      ...Object.fromEntries([...figures.pairs].map(([p, n]) => [ATTR.pair(p), n])),
    });
    // Each tag's item as counted; a tag stored but no longer held, deleted.
    await atMost(8, new Set([...stored.tags.keys(), ...figures.tags.keys()]), async (tag) => {
      const n = figures.tags.get(tag) ?? 0;
      if (n !== stored.tags.get(tag)) await (n > 0 ? put(tagItem(tag, n)) : remove(tagKey(tag)));
    });
    // Each code's count as counted; a code no public deck holds any more, deleted.
    await atMost(8, new Set([...stored.codes.keys(), ...figures.codes.keys()]), async (code) => {
      const n = figures.codes.get(code) ?? 0;
      if (n !== stored.codes.get(code)) await (n > 0 ? put({ ...codeKey(code), decks: n }) : remove(codeKey(code)));
    });
    await atMost(8, legacy, remove);
    await atMost(8, new Set([...contributions.keys(), ...counted.keys()]), async (deckId) => {
      const contribution = counted.get(deckId) ?? null;
      const rev = (contributions.get(deckId)?.rev ?? 0) + 1;
      if (contribution) await put({ ...contributionKey(deckId), ...contribution, rev });
      else await remove(contributionKey(deckId));
    });
  }
  return { decks: counted.size, drift: lines, unreadable };
}
