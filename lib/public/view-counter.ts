/**
 * Page views of shared decks, counted off the reader's path. A read only adds one to its container's
 * pending count for the deck — no write is awaited by any reader. At most VIEW_FLUSH_MS (default 30 s)
 * after a container's first pending view, a timer writes the whole batch: one UpdateItem per view
 * bucket touched (view-buckets.ts, 256 buckets, 50 decks a call), however many decks and views the
 * batch holds, then folds the decks whose totals moved by max(25, 25%, 3 per item rewritten) into their
 * deck item and search entries (counters.ts), a few decks at a time. The local runtime runs the same
 * design and writes what is pending on a clean stop.
 * Bounds (docs/data-model.md): a reader sees the stored total plus its own container's pending views;
 * other containers' pending views show within one window; views a container has not written are lost
 * only if it is reclaimed before its window ends (at most one window of its views). A failed write
 * keeps its views pending. Search sorts by folded views: below the stored total by less than
 * max(25, 25%, 3 per item a fold rewrites), plus what is pending.
 */
import { logger } from '#http/logger.ts';
import { count } from '#http/metrics.ts';
import { foldViewTotals } from '#store/counters.ts';
import { outsideRequest } from '#store/deadline.ts';
import type { StoredDeck } from '#store/records.ts';
import { addViews } from '#store/view-buckets.ts';

const pending = new Map<string, { n: number; deck: StoredDeck }>();
let timer: NodeJS.Timeout | undefined;
export const flushInterval = () => Number(process.env.VIEW_FLUSH_MS ?? 30_000);

/** Counts one view of `deck` (nothing awaited); answers this container's pending views of it. */
export function countView(deck: StoredDeck): number {
  const state = pending.get(deck.share_slug) ?? { n: 0, deck };
  state.n += 1;
  state.deck = deck;
  pending.set(deck.share_slug, state);
  schedule();
  return state.n;
}

/** The next flush, once per window. Not the reader's: it runs outside its request (no deadline of a request that has ended). */
function schedule(): void {
  timer ??= setTimeout(() => void outsideRequest(flushViews), flushInterval()).unref();
}

/** Writes every pending view (the timer's work; a clean stop and tests call it too); answers how many stay pending. */
export async function flushViews(): Promise<number> {
  clearTimeout(timer);
  timer = undefined;
  if (pending.size === 0) return 0;
  const batch = new Map(pending);
  pending.clear();
  const { totals, failed } = await addViews(new Map([...batch].map(([slug, p]) => [slug, p.n])));
  // Views whose call failed are kept for the next window (never written twice: their call did not apply).
  for (const [slug, n] of failed) {
    const kept = pending.get(slug) ?? { n: 0, deck: (batch.get(slug) as { deck: StoredDeck }).deck };
    kept.n += n;
    pending.set(slug, kept);
  }
  if (failed.size) {
    logger.warn('views not written; kept for the next window', { decks: failed.size });
    schedule();
  }
  const written = [...totals.keys()].reduce((n, slug) => n + (batch.get(slug)?.n ?? 0), 0);
  if (written) count('ViewsCounted', { route: 'readSharedDeck' }, written);
  const unfolded = await foldViewTotals(
    [...totals].map(([slug, total]) => ({ deck: (batch.get(slug) as { deck: StoredDeck }).deck, total })),
  );
  for (const { deck, error } of unfolded) logger.warn('views not folded', { error, share_slug: deck.share_slug });
  return [...failed.values()].reduce((a, b) => a + b, 0);
}
