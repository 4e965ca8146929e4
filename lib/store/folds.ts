/**
 * Likes, and the folding of views and likes into the deck item and its search entries: the writes (when
 * a fold is due is lib/rules/folds.ts). A deck's exact like count lives in one counter item, which no index
 * holds; its exact view count in a count item of its own (view-counts.ts). Both are "folded" into the deck
 * item and its search entries — what owner reads, search items and the views/likes sort orders show — only
 * when they have moved enough since the last fold, so a deck's index entries are rewritten O(log n) times.
 * Folds are the store-change worker's (lib/workers/), which the store's own change stream drives: a
 * fold that fails is retried until it lands.
 *
 * Ordering (contract §9.1: an entry never stays behind its deck). Each count carries an order — views
 * (and the week) their count's revision `rev` (each write of a count adds one: view-counts.ts), likes
 * the counter's `changes` (every like and unlike adds one) —
 * and every fold write is conditional on the item's order being older:
 *   1. a fold writes the deck item first and takes the facets from the deck *as written* (ALL_NEW): an
 *      entry that a PATCH made before the fold landed gets the fold too;
 *   2. then every entry of those facets;
 *   3. a PATCH (or reindex) writes its entries with the counts of the deck it read, in a transaction
 *      conditional on the deck still holding those counts (decks.ts `asRead`): a fold that landed in
 *      between sends the PATCH back to read again, so a PATCH never writes counts older than the deck's.
 * A fold whose deck write finds the deck already at or past it (a retry of a fold that stopped half-way)
 * brings the entries up to the deck's counts instead. The counter item: items/like-count.ts.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { atMost } from './at-most.ts';
import { documentClient, unlessConditionFailed } from './client.ts';
import { getDeck } from './decks.ts';
import { deckKey, fromItem, type StoredDeck } from './items/deck.ts';
import { likeCountKey } from './items/like-count.ts';
import { entryKey, facetsOf, sortKeys } from './items/search-entry.ts';
import { DECKS, tableName } from './tables.ts';

/** Entry writes one fold has in flight at once: a fold never floods the store (or the connection pool). */
export const FOLD_WRITES_AT_ONCE = 16;

export interface Counts {
  likes: number;
  /** How many likes and unlikes the counter has taken: a fold carries it, so a late fold never undoes a newer one. */
  changes: number;
}

const table = () => tableName(DECKS);

export async function getCounts(slug: string, consistent = false): Promise<Counts> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: likeCountKey(slug), ConsistentRead: consistent }));
  return { likes: Number(Item?.likes ?? 0), changes: Number(Item?.changes ?? 0) };
}

/**
 * A count to fold, and its order: views with the week's views, by their count's revision; likes by the
 * counter's `changes`.
 */
export type Fold = { field: 'views'; value: number; week: number; rev: number } | { field: 'likes'; value: number; changes: number };

/** What a fold sets beside its count, with its order last (the attribute its condition compares). */
const besideOf = (fold: Fold): [string, number][] =>
  fold.field === 'views'
    ? [
        ['views_7d', fold.week],
        ['views_rev', fold.rev],
      ]
    : [['likes_changes', fold.changes]];

/** The fold a deck item holds now (its folded count and that count's order). */
const heldBy = (deck: StoredDeck, field: Fold['field']): Fold =>
  field === 'views'
    ? { field, value: deck.views, week: deck.views_7d ?? 0, rev: deck.views_rev ?? 0 }
    : { field, value: deck.likes, changes: deck.likes_changes ?? 0 };

/** The sort keys a fold rewrites on an entry. */
const sortKeysOf = (fold: Fold, deck: StoredDeck): Record<string, string> => {
  const keys = sortKeys(fold.field === 'views' ? { ...deck, views: fold.value, views_7d: fold.week } : { ...deck, likes: fold.value });
  return fold.field === 'views' ? { by_views: keys.by_views, by_trending: keys.by_trending } : { by_likes: keys.by_likes };
};

/** One item's fold write: the count (and on entries its sort keys), only if the item exists and its order is older. */
function foldWrite(Key: Record<string, string>, fold: Fold, keys?: Record<string, string>) {
  const sets: [string, unknown][] = [[fold.field, fold.value], ...besideOf(fold), ...Object.entries(keys ?? {})];
  // The order is the last of what is set beside the count.
  const o = besideOf(fold).length;
  return new UpdateCommand({
    TableName: table(),
    Key,
    UpdateExpression: `SET ${sets.map((_, i) => `#s${i} = :s${i}`).join(', ')}`,
    ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(#s${o}) OR #s${o} < :s${o})`,
    // "views" is one of DynamoDB's reserved words: every name goes through a placeholder.
    ExpressionAttributeNames: Object.fromEntries(sets.map(([name], i) => [`#s${i}`, name])),
    ExpressionAttributeValues: Object.fromEntries(sets.map(([, value], i) => [`:s${i}`, value])),
    // The deck as written: its facets name the entries the fold goes on to.
    ...(keys ? {} : { ReturnValues: 'ALL_NEW' as const }),
  });
}

/**
 * Folds one count into a deck and its search entries, in the order the module header gives: the deck
 * item first (its facets as written), then each entry. Idempotent: a repeat, or a fold older than the
 * deck's, writes nothing the deck does not already hold, and brings the entries up to the deck.
 */
export async function foldDeck(deck: Pick<StoredDeck, 'user_id' | 'id'>, fold: Fold): Promise<void> {
  let written: StoredDeck | undefined;
  let held = fold;
  try {
    const { Attributes } = await documentClient().send(foldWrite(deckKey(deck.user_id, deck.id), fold));
    written = Attributes ? fromItem(Attributes) : undefined;
  } catch (e) {
    if ((e as Error).name !== 'ConditionalCheckFailedException') throw e;
    // Deleted, or already at or past this fold: its entries are brought up to what it holds.
    written = await getDeck(deck.user_id, deck.id);
    if (written) held = heldBy(written, fold.field);
  }
  if (!written) return;
  const now = written;
  const keys = sortKeysOf(held, now);
  await atMost(FOLD_WRITES_AT_ONCE, facetsOf(now), async (facet) => {
    await unlessConditionFailed(documentClient().send(foldWrite(entryKey(now.id, facet), held, keys)));
  });
}
