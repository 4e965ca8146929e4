/**
 * Likes, and the folding of views and likes into the deck item and its search entries.
 * A deck's exact like count lives in one counter item, which no index holds; its exact view count in
 * a bucket item shared with other decks (view-buckets.ts). Both are "folded" into the deck item and its
 * search entries — what owner reads, search items and the views/likes sort orders show — only when they
 * have moved enough since the last fold, so a deck's index entries are rewritten O(log n) times:
 *   likes: exact up to 10, within 10% beyond;
 *   views: checked each time the total passes a step of VIEW_STEPS (25, then +max(25, 25%)), folded when
 *   it has moved by at least max(25, 25%, 3 per item the fold rewrites) — a view is common, so folds must
 *   be rare, and a public deck has one entry per distinct card: a fold costs at most a third of an item
 *   per view it folds.
 * Folds are the store-change worker's (lib/workers/), which the store's own change stream drives: a
 * fold that fails is retried until it lands.
 *
 * Ordering (contract §9.1: an entry never stays behind its deck). Each count carries an order — views
 * their own value (they only grow), likes the counter's `changes` (every like and unlike adds one) —
 * and every fold write is conditional on the item's order being older:
 *   1. a fold writes the deck item first and takes the facets from the deck *as written* (ALL_NEW): an
 *      entry that a PATCH made before the fold landed gets the fold too;
 *   2. then every entry of those facets;
 *   3. a PATCH (or reindex) writes its entries with the counts of the deck it read, in a transaction
 *      conditional on the deck still holding those counts (decks.ts `asRead`): a fold that landed in
 *      between sends the PATCH back to read again, so a PATCH never writes counts older than the deck's.
 * A fold whose deck write finds the deck already at or past it (a retry of a fold that stopped half-way)
 * brings the entries up to the deck's counts instead. The counter item: items/counter.ts.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { atMost } from './at-most.ts';
import { documentClient, unlessConditionFailed } from './client.ts';
import { getDeck } from './decks.ts';
import { counterKey } from './items/counter.ts';
import { deckKey, fromItem, type StoredDeck } from './items/deck.ts';
import { entryKey, facetsOf, sortKeys } from './items/search-entry.ts';
import { DECKS, tableName } from './tables.ts';

export const LIKES_FOLD_RATIO = 0.1;
export const VIEWS_FOLD_RATIO = 0.25;
export const VIEWS_FOLD_MIN = 25;
/** Views a fold must carry per item it rewrites (the deck item and each search entry). */
export const VIEWS_PER_FOLDED_ITEM = 3;
/** Entry writes one fold has in flight at once: a fold never floods the store (or the connection pool). */
export const FOLD_WRITES_AT_ONCE = 16;

export interface Counts {
  likes: number;
  /** How many likes and unlikes the counter has taken: a fold carries it, so a late fold never undoes a newer one. */
  changes: number;
}

const table = () => tableName(DECKS);

export async function getCounts(slug: string, consistent = false): Promise<Counts> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: counterKey(slug), ConsistentRead: consistent }));
  return { likes: Number(Item?.likes ?? 0), changes: Number(Item?.changes ?? 0) };
}

/** Likes: exact up to 10, within 10% beyond. */
export const likesFoldDue = (count: number, folded: number): boolean =>
  Math.abs(count - folded) >= Math.max(1, Math.ceil(folded * LIKES_FOLD_RATIO));
/** How far a deck's views move before they are folded: max(25, 25%, 3 per item rewritten). */
export const viewsFoldStep = (folded: number, items: number): number =>
  Math.max(VIEWS_FOLD_MIN, Math.ceil(folded * VIEWS_FOLD_RATIO), VIEWS_PER_FOLDED_ITEM * items);

/**
 * Whether a view total that went from `before` to `after` passed one of the steps at which a fold is
 * considered — 25, 50, 75, 100, 125, 156… (each step max(25, 25%) beyond the last) — so that a deck is
 * looked at O(log n) times over n views, with no state of its own.
 */
export function viewStepPassed(before: number, after: number): boolean {
  for (const step of viewSteps(after)) if (step > before) return true;
  return false;
}

function* viewSteps(upTo: number): Generator<number> {
  for (let step = VIEWS_FOLD_MIN; step <= upTo; step += Math.max(VIEWS_FOLD_MIN, Math.floor(step * VIEWS_FOLD_RATIO))) yield step;
}

/**
 * Whether a deck whose views were last folded at `folded` is folded when its total moves from `before`
 * to `after` over a run of its bucket's changes: a step was passed, and the total has moved a fold step
 * since the last fold (or the deck is at or past it already: a retry of a fold that stopped half-way).
 */
export const viewsFoldDue = (folded: number, before: number, after: number, items: number): boolean =>
  viewStepPassed(before, after) && (folded >= after || after - folded >= viewsFoldStep(folded, items));

/**
 * The bound that rule keeps at rest, however a total's views were split into runs: the folded value is
 * at most the total, and either at or past the last step the total passed, or less than a fold step
 * behind it (the run that passed that step ended there or later, and was not due).
 */
export function viewsFoldWithinBound(folded: number, total: number, items: number): boolean {
  let last = 0;
  for (const step of viewSteps(total)) last = step;
  return folded <= total && (folded >= last || last - folded < viewsFoldStep(folded, items));
}

/** A count to fold, and its order: views by their own value, likes by the counter's `changes`. */
export type Fold = { field: 'views'; value: number } | { field: 'likes'; value: number; changes: number };

const orderOf = (fold: Fold): { attribute: string; value: number } =>
  fold.field === 'views' ? { attribute: 'views', value: fold.value } : { attribute: 'likes_changes', value: fold.changes };

/** The fold a deck item holds now (its folded count and that count's order). */
const heldBy = (deck: StoredDeck, field: Fold['field']): Fold =>
  field === 'views' ? { field, value: deck.views } : { field, value: deck.likes, changes: deck.likes_changes ?? 0 };

/** One item's fold write: the count (and on entries its sort key), only if the item exists and its order is older. */
function foldWrite(Key: Record<string, string>, fold: Fold, sortKey?: { name: string; value: string }) {
  const order = orderOf(fold);
  const sets = ['#c = :c', ...(fold.field === 'likes' ? ['likes_changes = :o'] : []), ...(sortKey ? ['#k = :k'] : [])];
  return new UpdateCommand({
    TableName: table(),
    Key,
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#o) OR #o < :o)',
    // "views" is one of DynamoDB's reserved words: every name goes through a placeholder.
    ExpressionAttributeNames: { '#c': fold.field, '#o': order.attribute, ...(sortKey ? { '#k': sortKey.name } : {}) },
    ExpressionAttributeValues: { ':c': fold.value, ':o': order.value, ...(sortKey ? { ':k': sortKey.value } : {}) },
    // The deck as written: its facets name the entries the fold goes on to.
    ...(sortKey ? {} : { ReturnValues: 'ALL_NEW' as const }),
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
  const sortKey = fold.field === 'views' ? 'by_views' : 'by_likes';
  const key = sortKeys({ ...now, [fold.field]: held.value })[sortKey];
  await atMost(FOLD_WRITES_AT_ONCE, facetsOf(now), async (facet) => {
    await unlessConditionFailed(documentClient().send(foldWrite(entryKey(now.id, facet), held, { name: sortKey, value: key })));
  });
}
