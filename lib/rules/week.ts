/**
 * Views of the last 7 days (contract §10.3, `views_7d` and `sort=trending`): whole UTC days plus today —
 * the views of days today − 7 … today, by the UTC day each view was served. Days are numbered from the
 * Unix epoch. A deck's view count keeps one slot per day of that window (8), each reused for the day 8 after
 * its own, so a day leaves the window with no write: a slot whose day is outside it counts nothing.
 */
export const WEEK_DAYS = 7;
/** A UTC day, in milliseconds. */
export const DAY_MS = 86_400_000;
/** Day slots: one for each day of the window. */
export const DAY_SLOTS = WEEK_DAYS + 1;

/** The UTC day of an instant (milliseconds since the epoch). */
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);
/** The slot a day's views are kept in. */
export const slotOf = (day: number): number => ((day % DAY_SLOTS) + DAY_SLOTS) % DAY_SLOTS;
/** Whether a day's views count in the window that ends today. */
export const inWeek = (day: number, today: number): boolean => day <= today && day >= today - WEEK_DAYS;

/** A slot: the day it holds, and a deck's views of that day. */
export interface DaySlot {
  day: number;
  views: number;
}

/** A deck's views of the window that ends `today`, from its slots. */
export const weekViews = (slots: Iterable<DaySlot>, today: number): number => {
  let sum = 0;
  for (const { day, views } of slots) if (inWeek(day, today)) sum += views;
  return sum;
};

/** What a count's slot becomes when views of a day are added to it. */
export type SlotWrite =
  /** The slot holds that day: its views go up. */
  | { slot: number; day: number; views: number; kind: 'add' }
  /** It holds an older day (or none): it is that day's now, with these views. */
  | { slot: number; day: number; views: number; kind: 'open'; held: number | undefined };

/**
 * How views of some days are added to a count's slots (`held`: the day each slot holds, or undefined): a day
 * of the week ending `today` goes in its slot — added when the slot holds it, opening the slot when it holds an
 * older day; a day older than the week, or than the day its slot holds, counts in the total only. Pure.
 */
export function slotWrites(held: readonly (number | undefined)[], byDay: ReadonlyMap<number, number>, today: number): SlotWrite[] {
  const writes: SlotWrite[] = [];
  for (const [day, views] of byDay) {
    if (!inWeek(day, today) || views === 0) continue;
    const slot = slotOf(day);
    const at = held[slot];
    if (at === day) writes.push({ slot, day, views, kind: 'add' });
    else if (at === undefined || at < day) writes.push({ slot, day, views, kind: 'open', held: at });
  }
  return writes;
}
