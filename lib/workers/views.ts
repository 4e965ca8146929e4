/**
 * A view bucket changed (its deck counts went up, a count was taken out): for each deck whose count
 * moved, fold it when due (counters.ts); and when a count appears, check that its deck still exists — a
 * view that was counted after its deck was deleted would otherwise bring the count back, forever.
 */
import { foldDeck, viewStepPassed, viewsFoldDue } from '#store/counters.ts';
import { deckBySlug, getDeck } from '#store/decks.ts';
import { facetsOf } from '#store/items/search-entry.ts';
import { VIEW_ATTRIBUTE_PREFIX } from '#store/items/view-bucket.ts';
import { forgetViewsNow } from '#store/view-buckets.ts';

type Image = Record<string, unknown>;

/** How one deck's count in a bucket moved over a run of the bucket's changes. */
export interface Moved {
  /** Before the first change that moved it (undefined: no count). */
  before: number | undefined;
  /** After the last (undefined: taken out). */
  after: number | undefined;
  /** It appeared in one of the changes (absent before it, present after): its deck must be checked. */
  appeared: boolean;
}

/**
 * The deck counts that moved over a run of a bucket's changes (each its old and new image, in order).
 * Each change is looked at, not only the first and the last: a count taken out (a delete) and brought
 * back (a view counted before it) within one run must still be seen to appear.
 */
export function movedCounts(changes: readonly [Image | undefined, Image | undefined][]): Map<string, Moved> {
  const moved = new Map<string, Moved>();
  for (const [before, after] of changes) {
    const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})].filter((n) => n.startsWith(VIEW_ATTRIBUTE_PREFIX)));
    for (const name of names) {
      const was = before?.[name] === undefined ? undefined : Number(before[name]);
      const now = after?.[name] === undefined ? undefined : Number(after[name]);
      if (was === now) continue;
      const slug = name.slice(VIEW_ATTRIBUTE_PREFIX.length);
      const seen = moved.get(slug) ?? { before: was, after: now, appeared: false };
      seen.after = now;
      if (was === undefined && now !== undefined) seen.appeared = true;
      moved.set(slug, seen);
    }
  }
  return moved;
}

/** What follows one deck's view count moving over a run of its bucket's changes. */
export async function viewsMoved(slug: string, { before, after, appeared }: Moved): Promise<void> {
  if (after === undefined) return; // taken out (the deck's delete, or a gone deck's count)
  if (!appeared && !viewStepPassed(before ?? 0, after)) return;
  // A count that appears: the slug index may still show a deck deleted a moment ago, so the deck item
  // itself, read consistently, says whether it is there.
  const listed = await deckBySlug(slug);
  const deck = listed && appeared ? await getDeck(listed.user_id, listed.id) : listed;
  if (!deck) {
    if (appeared) await forgetViewsNow(slug);
    return;
  }
  if (viewsFoldDue(deck.views, before ?? 0, after, 1 + facetsOf(deck).length)) await foldDeck(deck, { field: 'views', value: after });
}
