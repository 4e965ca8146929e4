/**
 * A deck's view count changed (its views went up, a new day was opened): fold its views and its views of the
 * week into the deck and its search entries when due (folds.ts); and when a count appears, check that its
 * deck still exists — a view that was counted after its deck was deleted would otherwise bring the count back,
 * forever. A count's week, in an image of it, ends on the latest day it knows (its slots' days, and the day the
 * daily opener opened it): when a new day comes, the day 8 before leaves the week (lib/rules/week.ts).
 */

import { viewStepPassed, viewsFoldDue, weekFoldDue, weekStepPassed } from '#rules/folds.ts';
import { weekViews } from '#rules/week.ts';
import { deckBySlug, getDeck } from '#store/decks.ts';
import { foldDeck } from '#store/folds.ts';
import { facetsOf } from '#store/items/search-entry.ts';
import { countOf } from '#store/items/view-count.ts';
import { forgetViewsNow } from '#store/view-counts.ts';

type Image = Record<string, unknown>;

/** How one deck's count moved over its item's changes of a batch. */
export interface Moved {
  /** Before the first change (undefined: no count). */
  before: number | undefined;
  /** After the last (undefined: deleted). */
  after: number | undefined;
  /** It appeared in one of the changes (absent before it, present after): its deck must be checked. */
  appeared: boolean;
  /** Its views of the week before the first change and after the last, each of the week its image knows. */
  weekBefore: number;
  weekAfter: number;
  /** The count's revision after the last change: the fold's order. */
  rev: number;
}

/** A count image's views of its week (of the week that ends on the latest day it knows). */
const weekOf = (image: Image | undefined): number => {
  const count = countOf(image);
  return count.day === undefined ? 0 : weekViews(count.slots, count.day);
};

/**
 * How a deck's count moved over its item's changes of a batch (each its old and new image, in order); undefined
 * when nothing moved. Each change is looked at, not only the first and the last: a count deleted (a delete)
 * and brought back (a view counted before it) within one run must still be seen to appear.
 */
export function movedCount(changes: readonly [Image | undefined, Image | undefined][]): Moved | undefined {
  let moved: Moved | undefined;
  for (const [before, after] of changes) {
    const was = before === undefined ? undefined : countOf(before).views;
    const now = after === undefined ? undefined : countOf(after).views;
    const [weekWas, weekNow] = [weekOf(before), weekOf(after)];
    if (was === now && weekWas === weekNow && before !== undefined && after !== undefined) continue;
    moved ??= { before: was, after: now, appeared: false, weekBefore: weekWas, weekAfter: weekNow, rev: 0 };
    moved.after = now;
    moved.weekAfter = weekNow;
    moved.rev = countOf(after).rev;
    if (before === undefined && after !== undefined) moved.appeared = true;
  }
  return moved;
}

/** What follows one deck's view count moving over its item's changes of a batch. */
export async function viewsMoved(slug: string, { before, after, appeared, weekBefore, weekAfter, rev }: Moved): Promise<void> {
  // Deleted with its deck: nothing of it is left to fold.
  if (after === undefined) return;
  if (!appeared && !viewStepPassed(before ?? 0, after) && !weekStepPassed(weekBefore, weekAfter)) return;
  // A count that appears: the slug index may still show a deck deleted a moment ago, so the deck item
  // itself, read consistently, says whether it is there.
  const listed = await deckBySlug(slug);
  const deck = listed && appeared ? await getDeck(listed.user_id, listed.id) : listed;
  if (!deck) {
    if (appeared) await forgetViewsNow(slug);
    return;
  }
  const items = 1 + facetsOf(deck).length;
  // Views and the week are folded together (one write an item); a deck already at or past this revision
  // is a fold that stopped half-way: its entries are brought up to it.
  const due =
    viewsFoldDue(deck.views, before ?? 0, after, items) ||
    weekFoldDue(deck.views_7d ?? 0, weekBefore, weekAfter, items) ||
    (deck.views_rev ?? -1) >= rev;
  if (due) await foldDeck(deck, { field: 'views', value: after, week: weekAfter, rev });
}
