/**
 * The view log and its batch markers (decks table): views on their way from the access log to the decks'
 * counts (view-log.ts in lib/store says how each is written, once). A log holds the batches of a window at
 * most (the view-log worker takes them out once moved): its size follows the traffic of a window, not the
 * library.
 *   marker: pk VIEWBATCH#<id>  sk VIEWBATCH  { expires_at: a day later (TTL; Lambda retries for 6 hours at most) }
 *   log:    pk VIEWLOG#<0-3>   sk VIEWLOG    { n: batches logged, b_<id>: { <share_slug>: views, … }, … }
 */
import { itemKind } from './kind.ts';
/** Groups of decks, one view log each: a batch writes its marker and at most 4 logs. */
export const VIEW_GROUPS = 4;

/** FNV-1a: a stable, cheap spread of slugs. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
/**
 * The group a deck's views are logged in: its hash's bucket of the 64 of earlier versions, mod 4 — the same
 * group as before, so the batches a log holds at an upgrade are moved on as they were logged.
 */
export const groupOf = (slug: string): number => (fnv1a(slug) % 64) % VIEW_GROUPS;
/** The bucket of 64 a deck's count was kept in up to this version (items/view-bucket.ts: legacy). */
export const legacyBucketOf = (slug: string): number => fnv1a(slug) % 64;
export const VIEW_LOG = itemKind('VIEWLOG#');
export const VIEW_BATCH = itemKind('VIEWBATCH#');
export const viewLogKey = (group: number) => ({ pk: VIEW_LOG.pk(group), sk: 'VIEWLOG' });
export const viewBatchKey = (id: string) => ({ pk: VIEW_BATCH.pk(id), sk: 'VIEWBATCH' });
/** A batch's attribute in its log. */
export const BATCH_PREFIX = 'b_';

/**
 * A batch as its log holds it: its ordinal in the log, and its views by share slug, each by the UTC day
 * they were served (a batch logged before days were kept: its views under no day).
 */
export interface LoggedBatch {
  id: string;
  ordinal: number;
  views: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** A log item's image in a change stream record (unmarshalled). */
type LogImage = Record<string, unknown>;

/** The batches a log's changes of a batch added (each change its old and new image, in order), in ordinal order. */
export function loggedBatches(changes: readonly [LogImage | undefined, LogImage | undefined][]): LoggedBatch[] {
  const batches: LoggedBatch[] = [];
  for (const [before, after] of changes) {
    if (!after) continue;
    for (const name of Object.keys(after)) {
      if (!name.startsWith(BATCH_PREFIX) || (before && Object.hasOwn(before, name))) continue;
      // A batch logged before days were kept holds a number a deck: its views under no day.
      const views = Object.entries(after[name] as Record<string, number | Record<string, number>>).map(([slug, v]) => [
        slug,
        typeof v === 'number' ? { '': v } : Object.fromEntries(Object.entries(v).map(([day, n]) => [day, Number(n)])),
      ]);
      batches.push({ id: name.slice(BATCH_PREFIX.length), ordinal: Number(after.n), views: Object.fromEntries(views) });
    }
  }
  return batches.sort((a, b) => a.ordinal - b.ordinal);
}
