/**
 * The view bucket (decks table): stored views, many decks to an item — a deck's exact stored view
 * count is the attribute `v_<share_slug>` of one of 64 buckets, by a hash of its share slug
 * (view-buckets.ts says why 64 and what it costs).
 *   pk VIEWS#<000-063>  sk VIEWS  { v_<share_slug>: views, …, applied: the ordinal of the last view
 *                                   batch of its group in it (view-log.ts) }
 */
import { itemKind } from './kind.ts';
export const VIEW_BUCKETS = 64;

/** FNV-1a: a stable, cheap spread of slugs over the buckets. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
/** The bucket a deck's count is kept in (0–63). */
export const bucketOf = (slug: string): number => fnv1a(slug) % VIEW_BUCKETS;
export const VIEW_BUCKET = itemKind('VIEWS#');
export const bucketKeyAt = (bucket: number) => ({ pk: VIEW_BUCKET.pk(String(bucket).padStart(3, '0')), sk: 'VIEWS' });
export const bucketKey = (slug: string) => bucketKeyAt(bucketOf(slug));
/** A deck's count in its bucket is the attribute `v_<share_slug>`. */
export const VIEW_ATTRIBUTE_PREFIX = 'v_';
export const viewAttribute = (slug: string) => `${VIEW_ATTRIBUTE_PREFIX}${slug}`;
