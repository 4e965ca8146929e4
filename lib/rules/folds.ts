/**
 * When a count is folded into a deck and its search entries (lib/store/folds.ts does the writes): pure.
 * A deck's exact counts live in items of their own (a like counter, a view count); what owner reads, search
 * items and the views/likes sort orders show are folded copies, rewritten only when they have moved enough:
 *   likes: exact up to 10, within 10% beyond;
 *   views: checked each time the total passes a step (25, then +max(25, 25%)), folded when it has moved by at
 *   least max(25, 25%, 4 views a write unit the fold costs) — a view is common, so folds must be rare, and a
 *   public deck has one entry per distinct card: a fold costs at most a quarter of a write unit per view it
 *   folds (contract §12.1: the browsed orders are exact from the boards, lib/rules/boards.ts, not from folds);
 *   views of the week: folded with the views; checked each time the week passes a step either way (it falls as
 *   days leave it), folded when it has moved a fold step from the folded value, and when it falls to 0 from a
 *   folded value (a deck gone cold leaves trending).
 * The bounds each keeps at rest are property-tested (test/unit/changes.test.ts).
 */
export const LIKES_FOLD_RATIO = 0.1;
export const VIEWS_FOLD_RATIO = 0.25;
export const VIEWS_FOLD_MIN = 25;
/**
 * Write units a fold costs an item it rewrites: the item, and in each sort index that holds it the key it moves
 * (a delete and a put) or the counts it copies — 7 an entry, measured with DynamoDB Local's
 * ReturnConsumedCapacity (a deck of 16 entries: 115 units a fold).
 */
export const FOLD_UNITS_PER_ITEM = 7;
/** Views a fold must carry a write unit it costs (contract §12.1: a fold's cost a small part of a view's). */
export const VIEWS_PER_FOLD_UNIT = 4;
/** Likes: exact up to 10, within 10% beyond. */
export const likesFoldDue = (count: number, folded: number): boolean =>
  Math.abs(count - folded) >= Math.max(1, Math.ceil(folded * LIKES_FOLD_RATIO));
/** How far a deck's views move before they are folded: max(25, 25%, 4 views a write unit of the fold's items). */
export const viewsFoldStep = (folded: number, items: number): number =>
  Math.max(VIEWS_FOLD_MIN, Math.ceil(folded * VIEWS_FOLD_RATIO), VIEWS_PER_FOLD_UNIT * FOLD_UNITS_PER_ITEM * items);

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
 * to `after` over its count's changes of a batch: a step was passed, and the total has moved a fold step
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
