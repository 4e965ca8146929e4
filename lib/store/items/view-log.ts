/**
 * The view log and its batch markers (decks table): views on their way from the access log to the
 * buckets (view-log.ts in lib/store says how each is written, once).
 *   marker: pk VIEWBATCH#<id>  sk VIEWBATCH  { expires_at: a day later (TTL; Lambda retries for 6 hours at most) }
 *   log:    pk VIEWLOG#<0-3>   sk VIEWLOG    { n: batches recorded, b_<id>: { <share_slug>: views, … }, … }
 */
import { itemKind } from './kind.ts';
/** Groups of buckets, one view log each (16 buckets a group): a batch writes its marker and at most 4 logs. */
export const VIEW_GROUPS = 4;
export const groupOf = (bucket: number) => bucket % VIEW_GROUPS;
export const VIEW_LOG = itemKind('VIEWLOG#');
export const VIEW_BATCH = itemKind('VIEWBATCH#');
export const viewLogKey = (group: number) => ({ pk: VIEW_LOG.pk(group), sk: 'VIEWLOG' });
export const viewBatchKey = (id: string) => ({ pk: VIEW_BATCH.pk(id), sk: 'VIEWBATCH' });
/** A batch's attribute in its log. */
export const BATCH_PREFIX = 'b_';
