/**
 * Legacy: the view buckets of earlier versions (decks table), read only by `deckctl views migrate`
 * (lib/store/view-migration.ts) — a deck's count was the attribute `v_<share_slug>` of one of 64 bucket
 * items, and its views of the week in 8 day maps `w0 … w7` of the same item: items that grew with the
 * library. Counts now live one item a deck (view-count.ts).
 *   pk VIEWS#<000-063>  sk VIEWS  { v_<share_slug>: views, …, applied, rev,
 *                                   w0 … w7: { @day: the day the slot holds, <share_slug>: views of that day, … } }
 */
import { DAY_SLOTS } from '#rules/week.ts';
import { itemKind } from './kind.ts';

export const VIEW_BUCKETS = 64;
export const VIEW_BUCKET = itemKind('VIEWS#');
export const bucketKeyAt = (bucket: number) => ({ pk: VIEW_BUCKET.pk(String(bucket).padStart(3, '0')), sk: 'VIEWS' });
export const VIEW_ATTRIBUTE_PREFIX = 'v_';
const SLOT_DAY = '@day';

/** A bucket's decks: each one's count and its views by day (from the day maps). */
export function bucketDecks(item: Record<string, unknown>): Map<string, { views: number; byDay: Map<number, number> }> {
  const decks = new Map<string, { views: number; byDay: Map<number, number> }>();
  for (const [name, value] of Object.entries(item))
    if (name.startsWith(VIEW_ATTRIBUTE_PREFIX))
      decks.set(name.slice(VIEW_ATTRIBUTE_PREFIX.length), { views: Number(value), byDay: new Map() });
  for (let slot = 0; slot < DAY_SLOTS; slot++) {
    const map = item[`w${slot}`] as Record<string, unknown> | undefined;
    if (!map || map[SLOT_DAY] === undefined) continue;
    const day = Number(map[SLOT_DAY]);
    for (const [slug, n] of Object.entries(map)) if (slug !== SLOT_DAY) decks.get(slug)?.byDay.set(day, Number(n));
  }
  return decks;
}
