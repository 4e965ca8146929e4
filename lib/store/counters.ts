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
 *   per view it folds;
 *   views of the week (`views_7d`, what `sort=trending` orders by: lib/rules/week.ts): folded with the
 *   views, in the same writes; checked each time the week passes a step either way (it falls as days
 *   leave it), folded when it has moved a fold step from the folded value, and when it falls to 0 from a
 *   folded value (a deck gone cold leaves trending).
 * Folds are the store-change worker's (lib/workers/), which the store's own change stream drives: a
 * fold that fails is retried until it lands.
 *
 * Ordering (contract §9.1: an entry never stays behind its deck). Each count carries an order — views
 * (and the week) their bucket's revision `rev` (each write of a bucket adds one: view-buckets.ts), likes
 * the counter's `changes` (every like and unlike adds one) —
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

/** Whether a deck's views of the week, moving from `before` to `after`, passed a step either way, or fell to 0. */
export const weekStepPassed = (before: number, after: number): boolean =>
  before !== after && (after === 0 || viewStepPassed(Math.min(before, after), Math.max(before, after)));

/**
 * Whether a deck whose week was last folded at `folded` is folded when its week moves from `before` to
 * `after`: a step was passed and it has moved a fold step from the folded value — or it fell to 0 and
 * the folded value is not 0 (such a fold follows a fold that raised it: at most one more to each).
 */
export const weekFoldDue = (folded: number, before: number, after: number, items: number): boolean =>
  weekStepPassed(before, after) && (after === 0 ? folded !== 0 : Math.abs(after - folded) >= viewsFoldStep(folded, items));

/** The last step a count has passed (0: none yet). */
function lastStep(count: number): number {
  let last = 0;
  for (const step of viewSteps(count)) last = step;
  return last;
}

/** How far apart the steps around a count are: a count moves that far at most without passing one. */
function stepWidth(count: number): number {
  const last = lastStep(count);
  return last === 0 ? VIEWS_FOLD_MIN : Math.max(VIEWS_FOLD_MIN, Math.floor(last * VIEWS_FOLD_RATIO));
}

/**
 * The bound the week's rule keeps at rest, however its moves fell into runs (and whenever a fold of the
 * views carried it along): 0 when the week is 0; else less than a fold step of the folded value, plus
 * the width of the steps around the week, apart.
 */
export const weekFoldWithinBound = (folded: number, week: number, items: number): boolean =>
  week === 0 ? folded === 0 : Math.abs(week - folded) < viewsFoldStep(folded, items) + stepWidth(week);

/**
 * The bound that rule keeps at rest, however a total's views were split into runs: the folded value is
 * at most the total, and either at or past the last step the total passed, or less than a fold step
 * behind it (the run that passed that step ended there or later, and was not due).
 */
export function viewsFoldWithinBound(folded: number, total: number, items: number): boolean {
  const last = lastStep(total);
  return folded <= total && (folded >= last || last - folded < viewsFoldStep(folded, items));
}

/**
 * A count to fold, and its order: views with the week's views, by their bucket's revision; likes by the
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
