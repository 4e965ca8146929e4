/**
 * What the library plays, counted again from the public decks (`deckctl meta recount`): the figures as stored
 * (items/plays.ts) against a recount of every public deck (rules/plays.ts recount), the drift between them, and
 * with `write` the stored figures replaced by the recount. The worker keeps them (plays.ts); this finds and mends
 * what went wrong behind it.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  type Contribution,
  contributionOf,
  type Delta,
  drift,
  emptyDelta,
  emptyPool,
  nonZero,
  recount,
  sameContribution,
} from '#rules/plays.ts';
import { atMost } from './at-most.ts';
import { documentClient, scanItems } from './client.ts';
import { allPublicDecks } from './decks.ts';
import {
  ATTR,
  COUNTED_IN_FACTIONS,
  COUNTED_IN_ITEMS,
  cardsKey,
  contributionFrom,
  contributionKey,
  factionsKey,
  inFactionsOf,
  LEGACY_TAG_SHARDS,
  PLAYS,
  PLAYS_OF,
  poolOf,
  type StoredContribution,
} from './items/plays.ts';
import { DECKS, tableName } from './tables.ts';

const table = () => tableName(DECKS);

const scanPrefix = (prefix: string): AsyncGenerator<Record<string, unknown>> =>
  scanItems({
    TableName: table(),
    FilterExpression: 'begins_with(pk, :p)',
    ExpressionAttributeValues: { ':p': prefix },
    ConsistentRead: true,
  });

const put = async (Item: Record<string, unknown>) => void (await documentClient().send(new PutCommand({ TableName: table(), Item })));
const remove = async (Key: Record<string, string>) => void (await documentClient().send(new DeleteCommand({ TableName: table(), Key })));

/**
 * Replaces the stored figures (`stored`, as storedFigures read them) by `figures`: every pool's item whole (a pool
 * no longer counted emptied), the factions' item, each tag's and each code's item that differs (one no public deck
 * holds any more: deleted). The contributions are the caller's.
 */
export async function writeFigures(figures: Delta, stored: Delta): Promise<void> {
  const now = new Date().toISOString();
  const pools = new Set([...stored.pools.keys(), ...figures.pools.keys()]);
  await atMost(8, pools, async (pool) => {
    const s = figures.pools.get(pool) ?? emptyPool();
    const cards = [...s.cards].flatMap(([id, c]) => [
      [ATTR.cardDecks(id), c.decks],
      [ATTR.cardCopies(id), c.copies],
    ]);
    await put({ ...cardsKey(pool), decks: s.decks, as_of: now, ...Object.fromEntries(cards) });
  });
  const factions: Record<string, unknown> = { ...factionsKey(), decks: figures.decks, as_of: now };
  for (const [name, { attr }] of COUNTED_IN_FACTIONS) for (const [key, n] of figures.counts[name]) factions[`${attr}${key}`] = n;
  await put(factions);
  for (const [name, store] of COUNTED_IN_ITEMS) {
    const [want, had] = [figures.counts[name], stored.counts[name]];
    await atMost(8, new Set([...had.keys(), ...want.keys()]), async (key) => {
      const n = want.get(key) ?? 0;
      if (n !== had.get(key)) await (n > 0 ? put(store.item(key, n)) : remove(store.key(key)));
    });
  }
}

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
      Object.assign(figures.counts, inFactionsOf(item));
    } else if (item.pk === LEGACY_TAG_SHARDS) legacy.push({ pk: String(item.pk), sk: String(item.sk) });
  }
  for (const [name, store] of COUNTED_IN_ITEMS)
    for await (const item of scanPrefix(store.kind.prefix)) figures.counts[name].set(store.keyOf(item), Number(item.decks ?? 0));
  for await (const item of scanPrefix(PLAYS_OF.prefix))
    contributions.set(String(item.pk).slice(PLAYS_OF.prefix.length), contributionFrom(item));
  return { figures: nonZero(figures), contributions, legacy };
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
    await writeFigures(figures, stored);
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
