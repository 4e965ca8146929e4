/**
 * A view bucket changed (its deck counts went up, a count was taken out, a day slot was opened): for each
 * deck whose count or views of the week moved, fold them when due (counters.ts); and when a count
 * appears, check that its deck still exists — a view that was counted after its deck was deleted would
 * otherwise bring the count back, forever. A bucket's week, in an image of it, ends on the latest day its
 * slots hold: when a slot is opened for a new day, the day 8 before it leaves the week (lib/rules/week.ts).
 */
import { weekViews } from '#rules/week.ts';
import { foldDeck, viewStepPassed, viewsFoldDue, weekFoldDue, weekStepPassed } from '#store/counters.ts';
import { deckBySlug, getDeck } from '#store/decks.ts';
import { facetsOf } from '#store/items/search-entry.ts';
import { bucketDay, slotDays, slotSlugs, slotsHolding, slotsOf, VIEW_ATTRIBUTE_PREFIX } from '#store/items/view-bucket.ts';
import { forgetViewsNow, forgetWeekNow } from '#store/view-buckets.ts';

type Image = Record<string, unknown>;

/** How one deck's count in a bucket moved over a run of the bucket's changes. */
export interface Moved {
  /** Before the first change that moved it (undefined: no count). */
  before: number | undefined;
  /** After the last (undefined: taken out). */
  after: number | undefined;
  /** It appeared in one of the changes (absent before it, present after): its deck must be checked. */
  appeared: boolean;
  /** Its views of the week before the first change and after the last, as the bucket's images know it. */
  weekBefore: number;
  weekAfter: number;
  /** The bucket's revision after the last change: the fold's order. */
  rev: number;
  /** The day slots that hold its views after the last change (taken out with its count). */
  slots: number[];
}

/**
 * Each deck's views of the week in an image of its bucket: of the week that ends on the image's latest day
 * (the image's slot days read once, for all its decks).
 */
const weeksIn = (image: Image | undefined): ((slug: string) => number) => {
  const days = slotDays(image);
  const day = bucketDay(days);
  return (slug) => (day === undefined ? 0 : weekViews(slotsOf(image, slug, days), day));
};

/**
 * The deck counts that moved over a run of a bucket's changes (each its old and new image, in order).
 * Each change is looked at, not only the first and the last: a count taken out (a delete) and brought
 * back (a view counted before it) within one run must still be seen to appear.
 */
export function movedCounts(changes: readonly [Image | undefined, Image | undefined][]): Map<string, Moved> {
  const moved = new Map<string, Moved>();
  for (const [before, after] of changes) {
    const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})].filter((n) => n.startsWith(VIEW_ATTRIBUTE_PREFIX)));
    const slugs = new Set([...names].map((n) => n.slice(VIEW_ATTRIBUTE_PREFIX.length)));
    for (const slug of [...slotSlugs(before), ...slotSlugs(after)]) slugs.add(slug);
    const rev = Number(after?.rev ?? 0);
    const [weekBefore, weekAfter] = [weeksIn(before), weeksIn(after)];
    for (const slug of slugs) {
      const name = `${VIEW_ATTRIBUTE_PREFIX}${slug}`;
      const was = before?.[name] === undefined ? undefined : Number(before[name]);
      const now = after?.[name] === undefined ? undefined : Number(after[name]);
      const [weekWas, weekNow] = [weekBefore(slug), weekAfter(slug)];
      if (was === now && weekWas === weekNow) continue;
      const seen = moved.get(slug) ?? { before: was, after: now, appeared: false, weekBefore: weekWas, weekAfter: weekNow, rev, slots: [] };
      seen.after = now;
      seen.weekAfter = weekNow;
      seen.rev = rev;
      seen.slots = slotsHolding(after, slug);
      if (was === undefined && now !== undefined) seen.appeared = true;
      moved.set(slug, seen);
    }
  }
  return moved;
}

/** What follows one deck's view count moving over a run of its bucket's changes. */
export async function viewsMoved(slug: string, { before, after, appeared, weekBefore, weekAfter, rev, slots }: Moved): Promise<void> {
  // Taken out (the deck's delete, or a gone deck's count): its views of the week go with it.
  if (after === undefined) return forgetWeekNow(slug, slots);
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
