/**
 * Page views of shared decks, counted off the reader's path. A read only adds one to its container's
 * pending count for the deck — no write is awaited by any reader. At most VIEW_FLUSH_MS (default 30 s)
 * after a container's first pending view, a timer writes the whole batch: one UpdateItem per view
 * bucket touched (view-buckets.ts, 256 buckets, 50 decks a call), however many decks and views the
 * batch holds. Folding the totals into deck items and search entries follows from those writes: the
 * store-change worker sees the buckets change (lib/changes/views.ts). The local runtime runs the same
 * design and writes what is pending on a clean stop.
 * Bounds (docs/data-model.md): a reader sees the stored total plus its own container's pending views;
 * other containers' pending views show within one window; views a container has not written are lost
 * only if it is reclaimed before its window ends (at most one window of its views). A failed write
 * keeps its views pending.
 */
import { logger } from '#http/logger.ts';
import { count } from '#metrics';
import { outsideRequest } from '#store/deadline.ts';
import { addViews } from '#store/view-buckets.ts';

/** Views counted in this container and not yet written, by share slug. */
const pending = new Map<string, number>();
let timer: NodeJS.Timeout | undefined;
export const flushInterval = () => Number(process.env.VIEW_FLUSH_MS ?? 30_000);

/** Counts one view of the deck (nothing awaited); answers this container's pending views of it. */
export function countView(slug: string): number {
  const n = (pending.get(slug) ?? 0) + 1;
  pending.set(slug, n);
  schedule();
  return n;
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
  const { totals, failed } = await addViews(batch);
  // Views whose call failed are kept for the next window.
  for (const [slug, n] of failed) pending.set(slug, (pending.get(slug) ?? 0) + n);
  if (failed.size) {
    logger.warn('views not written; kept for the next window', { decks: failed.size });
    schedule();
  }
  const written = [...totals.keys()].reduce((n, slug) => n + (batch.get(slug) ?? 0), 0);
  if (written) count('ViewsCounted', {}, written);
  return [...failed.values()].reduce((a, b) => a + b, 0);
}
