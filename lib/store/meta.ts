/**
 * What the library plays (contract §10.3): the figures kept from the decks table's changes (items/meta.ts)
 * and read by the meta routes. The store-change worker hands over the decks a batch changed; each deck's
 * figures are brought from what it adds now (its stored contribution) to what it adds as it is now (read
 * again: the record only says that it changed), the decks of a batch summed before anything is written —
 * a burst of public creates makes one write an item a chunk, not one a deck. Each chunk is one
 * transaction with the decks' contributions, each on the condition that it is still the one read, so a
 * change is applied once however often its record comes back (retries, repeats). At rest, every figure
 * is what a recount of the public decks makes (`deckctl meta recount`: recountMeta).
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { addChange, type Contribution, contributionOf, type Delta, emptyDelta, nonZero, recount, sameContribution } from '#rules/meta.ts';
import { atMost } from './at-most.ts';
import { documentClient, type TransactItem, transact } from './client.ts';
import { allPublicDecks } from './decks.ts';
import { deckKey } from './items/deck.ts';
import {
  ATTR,
  cardsKey,
  contributionFrom,
  contributionKey,
  factionsKey,
  figuresUnder,
  META,
  META_OF,
  type StoredContribution,
  scopeOf,
  TAG_SHARDS,
  tagShard,
  tagsKey,
  tagsPk,
} from './items/meta.ts';
import { DECKS, tableName } from './tables.ts';

const table = () => tableName(DECKS);

/** Most decks a transaction takes, and most distinct cards of one scope it writes (an update expression holds at most 4 KB). */
const CHUNK_DECKS = 20;
const CHUNK_CARDS = 100;
/** A chunk whose contribution changed under it (a record of the same deck handled at once elsewhere) is read again this often. */
const REREADS = 3;

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
function adds(key: Record<string, string>, figures: Record<string, number>, now: string): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now };
  const parts = Object.entries(figures).map(([name, n], i) => {
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

/** The writes of a summed delta: each card scope, the pairs and the count of public decks, each tag shard. */
export function figureWrites(delta: Delta, now: string): TransactItem[] {
  const writes: TransactItem[] = [];
  for (const [scope, s] of Object.entries(delta.scopes)) {
    const figures: Record<string, number> = { decks: s.decks };
    for (const [id, c] of Object.entries(s.cards)) {
      figures[ATTR.cardDecks(id)] = c.decks;
      figures[ATTR.cardCopies(id)] = c.copies;
    }
    writes.push(adds(cardsKey(scope), figures, now));
  }
  if (delta.decks !== 0 || Object.keys(delta.pairs).length > 0)
    writes.push(
      adds(
        factionsKey(),
        { decks: delta.decks, ...Object.fromEntries(Object.entries(delta.pairs).map(([p, n]) => [ATTR.pair(p), n])) },
        now,
      ),
    );
  const shards = new Map<string, Record<string, number>>();
  for (const [tag, n] of Object.entries(delta.tags)) {
    const shard = tagShard(tag);
    shards.set(shard, { ...shards.get(shard), [ATTR.tag(tag)]: n });
  }
  for (const [shard, figures] of shards) writes.push(adds(tagsKey(shard), figures, now));
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

/** Changes in chunks a transaction can take: at most CHUNK_DECKS decks, CHUNK_CARDS distinct cards a scope. */
function chunked(changes: Change[]): Change[][] {
  const chunks: Change[][] = [];
  let chunk: Change[] = [];
  let delta = emptyDelta();
  for (const change of changes) {
    const next = addChange(structuredClone(delta), change.before.contribution, change.after);
    const wide = Object.values(next.scopes).some((s) => Object.keys(s.cards).length > CHUNK_CARDS);
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

/** Writes a chunk's changes: 'ok', or 'stale' when a contribution changed since it was read. */
async function writeChunk(chunk: Change[]): Promise<'ok' | 'stale'> {
  const delta = nonZero(chunk.reduce((d, c) => addChange(d, c.before.contribution, c.after), emptyDelta()));
  const outcome = await transact([...chunk.map(contributionWrite), ...figureWrites(delta, new Date().toISOString())]);
  if (outcome === 'conflict') throw new Error('meta figures: the transaction kept conflicting');
  return outcome === 'ok' ? 'ok' : 'stale';
}

/** Brings the figures up to these decks as they are now (the store-change worker's work for changed decks). */
export async function applyMeta(decks: readonly { userId: string; deckId: string }[]): Promise<void> {
  let pending = [...decks];
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > REREADS) throw new Error('meta figures: contributions kept changing under their changes');
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
/** A card scope's figures (one GetItem, whatever the library's size). */
export async function readScope(scope: string) {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: cardsKey(scope) }));
  return scopeOf(Item);
}

/** The pairs, the count of public decks and every tag's (one GetItem and one Query of the tag shards). */
export async function readFactions() {
  const [factions, tags] = await Promise.all([
    documentClient().send(new GetCommand({ TableName: table(), Key: factionsKey() })),
    documentClient().send(
      new QueryCommand({ TableName: table(), KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': tagsPk() } }),
    ),
  ]);
  return {
    decks: Number(factions.Item?.decks ?? 0),
    as_of: (factions.Item?.as_of as string | undefined) ?? null,
    pairs: figuresUnder(factions.Item, 'p:'),
    tags: Object.assign({}, ...(tags.Items ?? []).map((i) => figuresUnder(i, 't:'))) as Record<string, number>,
  };
}

// --- recount ----------------------------------------------------------------------------------------------
async function* scanPrefix(prefix: string): AsyncGenerator<Record<string, unknown>> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: table(),
        FilterExpression: 'begins_with(pk, :p)',
        ExpressionAttributeValues: { ':p': prefix },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    yield* page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

/** Every figure as stored, in a delta's shape (zeros left out), and the stored contributions by deck. */
async function storedFigures(): Promise<{ figures: Delta; contributions: Map<string, StoredContribution> }> {
  const figures = emptyDelta();
  const contributions = new Map<string, StoredContribution>();
  for await (const item of scanPrefix(META.prefix)) {
    if (item.pk === cardsKey('').pk) {
      const s = scopeOf(item);
      figures.scopes[String(item.sk)] = { decks: s.decks, cards: s.cards };
    } else if (item.pk === factionsKey().pk) {
      figures.decks = Number(item.decks ?? 0);
      Object.assign(figures.pairs, figuresUnder(item, 'p:'));
    } else if (item.pk === tagsPk()) Object.assign(figures.tags, figuresUnder(item, 't:'));
  }
  for await (const item of scanPrefix(META_OF.prefix))
    contributions.set(String(item.pk).slice(META_OF.prefix.length), contributionFrom(item));
  return { figures: nonZero(figures), contributions };
}

/** What differs between two figure sets, a line each: `<figure>: <stored> → <recounted>`. */
export function drift(stored: Delta, counted: Delta): string[] {
  const lines: string[] = [];
  const compare = (name: string, a: number | undefined, b: number | undefined) => {
    if ((a ?? 0) !== (b ?? 0)) lines.push(`${name}: ${a ?? 0} → ${b ?? 0}`);
  };
  compare('public decks', stored.decks, counted.decks);
  for (const scope of new Set([...Object.keys(stored.scopes), ...Object.keys(counted.scopes)])) {
    const [a, b] = [stored.scopes[scope], counted.scopes[scope]];
    compare(`cards ${scope}: decks`, a?.decks, b?.decks);
    for (const id of new Set([...Object.keys(a?.cards ?? {}), ...Object.keys(b?.cards ?? {})])) {
      compare(`cards ${scope}: ${id} decks`, a?.cards[id]?.decks, b?.cards[id]?.decks);
      compare(`cards ${scope}: ${id} copies`, a?.cards[id]?.copies, b?.cards[id]?.copies);
    }
  }
  for (const pair of new Set([...Object.keys(stored.pairs), ...Object.keys(counted.pairs)]))
    compare(`pair ${pair}`, stored.pairs[pair], counted.pairs[pair]);
  for (const tag of new Set([...Object.keys(stored.tags), ...Object.keys(counted.tags)]))
    compare(`tag ${JSON.stringify(tag)}`, stored.tags[tag], counted.tags[tag]);
  return lines;
}

/**
 * Recounts every figure from the public decks (`deckctl meta recount`) and, with `write`, replaces what is
 * stored by it: the figures' items whole, and each deck's contribution. Returns the drift it found (and
 * corrected). Run while the library is quiet: a change landing during it is the worker's to apply after.
 */
export async function recountMeta(write: boolean): Promise<{ decks: number; drift: string[] }> {
  const counted = new Map<string, Contribution | null>();
  for await (const deck of allPublicDecks()) counted.set(deck.id, contributionOf(deck));
  const figures = recount(counted.values());
  const { figures: stored, contributions } = await storedFigures();
  const lines = drift(stored, figures);
  for (const [deckId, { contribution }] of contributions)
    if (!sameContribution(contribution, counted.get(deckId) ?? null)) lines.push(`contribution of deck ${deckId}`);
  for (const [deckId, contribution] of counted)
    if (!contributions.has(deckId) && contribution) lines.push(`contribution of deck ${deckId} (missing)`);
  if (write && lines.length > 0) {
    const now = new Date().toISOString();
    const put = async (Item: Record<string, unknown>) => void (await documentClient().send(new PutCommand({ TableName: table(), Item })));
    // Every figure item whole: those of scopes and tag shards no longer counted are emptied.
    const scopes = new Set([...Object.keys(stored.scopes), ...Object.keys(figures.scopes)]);
    await atMost(8, [...scopes], async (scope) => {
      const s = figures.scopes[scope] ?? { decks: 0, cards: {} };
      const cards = Object.entries(s.cards).flatMap(([id, c]) => [
        [ATTR.cardDecks(id), c.decks],
        [ATTR.cardCopies(id), c.copies],
      ]);
      await put({ ...cardsKey(scope), decks: s.decks, as_of: now, ...Object.fromEntries(cards) });
    });
    await put({
      ...factionsKey(),
      decks: figures.decks,
      as_of: now,
      ...Object.fromEntries(Object.entries(figures.pairs).map(([p, n]) => [ATTR.pair(p), n])),
    });
    const shards = new Map<string, Record<string, number>>(
      Array.from({ length: TAG_SHARDS }, (_, i) => [String(i).padStart(2, '0'), {}] as [string, Record<string, number>]),
    );
    for (const [tag, n] of Object.entries(figures.tags)) Object.assign(shards.get(tagShard(tag)) as object, { [ATTR.tag(tag)]: n });
    await atMost(8, [...shards], ([shard, tags]) => put({ ...tagsKey(shard), as_of: now, ...tags }));
    await atMost(8, [...new Set([...contributions.keys(), ...counted.keys()])], async (deckId) => {
      const contribution = counted.get(deckId) ?? null;
      const rev = (contributions.get(deckId)?.rev ?? 0) + 1;
      if (contribution) await put({ ...contributionKey(deckId), ...contribution, rev });
      else await documentClient().send(new DeleteCommand({ TableName: table(), Key: contributionKey(deckId) }));
    });
  }
  return { decks: counted.size, drift: lines };
}
