/**
 * Views, batched per container: each container adds up the views it serves and writes them in one
 * ADD at most once per VIEW_FLUSH_MS (default 1 s) per deck — the first view of a quiet deck at once.
 * At 1,000 reads/s a deck's counter item takes about (warm containers) writes per second, not 1,000.
 * Error bounds: a reader sees the stored count plus its own container's pending views; views a
 * container has not yet written are lost only if it is reclaimed before its next view of that deck
 * (at most one window's worth of that container's views). A failed write keeps its views pending.
 */
import { logger } from '#http/logger.ts';
import { count } from '#http/metrics.ts';
import { addViews, type Counts, foldIfDue } from '#store/counters.ts';
import type { StoredDeck } from '#store/decks.ts';

const pending = new Map<string, { count: number; flushedAt: number }>();
export const flushInterval = () => Number(process.env.VIEW_FLUSH_MS ?? 1000);

/** Counts one view of `deck` (whose counts were read as `counts`); returns the counts to show. */
export async function countView(deck: StoredDeck, counts: Counts): Promise<Counts> {
  const state = pending.get(deck.share_slug) ?? { count: 0, flushedAt: 0 };
  pending.set(deck.share_slug, state);
  state.count += 1;
  const now = Date.now();
  if (now - state.flushedAt < flushInterval()) return { ...counts, views: counts.views + state.count };

  const n = state.count;
  state.count = 0;
  state.flushedAt = now;
  let stored: Counts;
  try {
    stored = await addViews(deck.share_slug, n);
    count('ViewsCounted', { route: 'readSharedDeck' }, n);
  } catch (error) {
    // Keep the views for the next write; a read never fails for its count.
    state.count += n;
    logger.warn('view count not written', { error: error as Error, share_slug: deck.share_slug });
    return { ...counts, views: counts.views + state.count };
  }
  await foldIfDue(deck, stored).catch((error: Error) => logger.warn('counts not folded', { error, share_slug: deck.share_slug }));
  return { ...stored, views: stored.views + state.count };
}
