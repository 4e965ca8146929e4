/**
 * The view bucket (decks table): stored views, many decks to an item — a deck's exact stored view
 * count is the attribute `v_<share_slug>` of one of 64 buckets, by a hash of its share slug
 * (view-buckets.ts says why 64 and what it costs).
 *   pk VIEWS#<000-063>  sk VIEWS  { v_<share_slug>: views, …, applied: the ordinal of the last view
 *                                   batch of its group in it (view-log.ts), w0 … w7: { @day: the day the
 *                                   slot holds (lib/rules/week.ts), <share_slug>: views of that day, … },
 *                                   rev: the bucket's writes (the order of a fold: counters.ts) }
 */
import { DAY_SLOTS, type DaySlot } from '#rules/week.ts';
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
/**
 * A day slot: a map of the day it holds (SLOT_DAY) and each deck's views of that day, by share slug — never
 * empty, so an opened slot is never an empty map (which the local stream's SDK hands over as no value).
 */
export const slotMap = (slot: number) => `w${slot}`;
/** The key of a slot's day in its map (no share slug has an @). */
export const SLOT_DAY = '@day';
export const SLOTS = Array.from({ length: DAY_SLOTS }, (_, slot) => slot);

/**
 * The expression names of the slots, for reads and writes of slot paths: `#w<slot>` each slot's map and
 * `#day` its day (`#w3.#day`; a deck's views `#w3.#s` with `#s` its slug).
 */
export const SLOT_NAMES: Readonly<Record<string, string>> = {
  '#day': SLOT_DAY,
  ...Object.fromEntries(SLOTS.map((slot) => [`#w${slot}`, slotMap(slot)])),
};
export const slotPath = (slot: number, key = '#day') => `#w${slot}.${key}`;

type Image = Record<string, unknown>;
const slotIn = (item: Image | undefined, slot: number) => item?.[slotMap(slot)] as Image | undefined;
/** The days a bucket's slots hold (undefined: a slot never opened). */
export const slotDays = (item: Image | undefined): (number | undefined)[] =>
  SLOTS.map((slot) => {
    const day = slotIn(item, slot)?.[SLOT_DAY];
    return day === undefined ? undefined : Number(day);
  });
/** A deck's views in each slot of a bucket (as read, or an image of it); its slots' days, where read already. */
export function slotsOf(item: Image | undefined, slug: string, days = slotDays(item)): DaySlot[] {
  return SLOTS.flatMap((slot) => {
    const views = slotIn(item, slot)?.[slug];
    const day = days[slot];
    return day === undefined || views === undefined ? [] : [{ day, views: Number(views) }];
  });
}
/** The slots of a bucket that hold views of a deck. */
export const slotsHolding = (item: Image | undefined, slug: string): number[] =>
  SLOTS.filter((slot) => slotIn(item, slot)?.[slug] !== undefined);
/** The share slugs a bucket's slots hold views of. */
export const slotSlugs = (item: Image | undefined): string[] =>
  SLOTS.flatMap((slot) => Object.keys(slotIn(item, slot) ?? {}).filter((key) => key !== SLOT_DAY));
/** The latest of a bucket's slots' days: the day its week ends, as the bucket knows it (undefined: none). */
export function bucketDay(days: readonly (number | undefined)[]): number | undefined {
  const held = days.filter((d) => d !== undefined);
  return held.length ? Math.max(...held) : undefined;
}
