/**
 * The archetypes' trend (contract §13.3): the share of the public decks each archetype had in each of the last
 * TREND_WEEKS weeks (weeks from Monday, UTC). Each week is kept as the daily cluster job last saw it (its decks, and
 * each archetype's decks), the week in progress as the figures are now. Pure: what a week is, a week's figures folded
 * into those kept, an archetype's shares read out of them.
 */
import * as v from 'valibot';
import { DAY_MS, dayOf } from './week.ts';

/** Weeks a trend holds, the week in progress the last. */
export const TREND_WEEKS = 8;
/** 1970-01-01 was a Thursday: a day's weekday from Monday (0) to Sunday (6) is (day + 3) mod 7. */
const MONDAY_OFFSET = 3;

/** The weeks kept: each one's Monday (YYYY-MM-DD, oldest first), its public decks, and each archetype's decks in it. */
export interface Trend {
  weeks: string[];
  decks: number[];
  /** An archetype's decks in each week of `weeks`, in its order (0: none that week). */
  counts: Record<string, number[]>;
}

export const NO_TREND: Trend = { weeks: [], decks: [], counts: {} };

/** A trend's stored shape, made when first read (a bundle that reads no trend, and imports TREND_WEEKS, builds none). */
let weeksShape: v.GenericSchema<unknown, Trend> | undefined;
const Weeks = () =>
  (weeksShape ??= v.pipe(
    v.object({
      weeks: v.array(v.pipe(v.string(), v.isoDate())),
      decks: v.array(v.pipe(v.number(), v.minValue(0))),
      counts: v.record(v.string(), v.array(v.pipe(v.number(), v.minValue(0)))),
    }),
    v.check(
      (t) =>
        t.weeks.every((w, i) => i === 0 || (t.weeks[i - 1] as string) < w) &&
        t.decks.length === t.weeks.length &&
        Object.values(t.counts).every((row) => row.length === t.weeks.length),
    ),
  ));

/** A trend as stored, when it is one (its weeks in order, each once; its decks and every row aligned to them); else none: a trend is figures, never a failure. */
export const trendRead = (stored: unknown): Trend => {
  const read = v.safeParse(Weeks(), stored);
  return read.success ? read.output : NO_TREND;
};

/** The Monday (UTC) of an instant's week, as YYYY-MM-DD. */
export function weekOf(at: Date): string {
  const day = dayOf(at.getTime());
  const monday = day - ((((day + MONDAY_OFFSET) % 7) + 7) % 7);
  return new Date(monday * DAY_MS).toISOString().slice(0, 10);
}

/** The Monday TREND_WEEKS − 1 weeks before a week's: the oldest a trend ending that week keeps. */
const oldestKept = (week: string): string => new Date(Date.parse(week) - (TREND_WEEKS - 1) * 7 * DAY_MS).toISOString().slice(0, 10);

/**
 * A trend with the figures of the week `at` is in: that week's replaced when kept, else added as the newest; weeks older
 * than TREND_WEEKS − 1 before it (or after it: a clock set back) dropped, with an archetype no week kept names.
 */
export function withWeek(kept: Trend, at: Date, decks: number, counts: ReadonlyMap<string, number>): Trend {
  const week = weekOf(at);
  const from = oldestKept(week);
  const keep = kept.weeks.flatMap((w, i) => (w >= from && w < week ? [i] : []));
  const weeks = [...keep.map((i) => kept.weeks[i] as string), week];
  const ids = new Set([...Object.keys(kept.counts), ...counts.keys()]);
  const out: Record<string, number[]> = {};
  for (const id of [...ids].sort()) {
    const row = [...keep.map((i) => kept.counts[id]?.[i] ?? 0), Math.max(0, counts.get(id) ?? 0)];
    if (row.some((n) => n > 0)) out[id] = row;
  }
  return { weeks, decks: [...keep.map((i) => kept.decks[i] ?? 0), decks], counts: out };
}

/** An archetype's share of each kept week's public decks (4 decimals; 0 in a week with none), oldest first. */
export const sharesOf = (trend: Trend, id: string): { week: string; share: number }[] =>
  trend.weeks.map((week, i) => {
    const all = trend.decks[i] ?? 0;
    const n = trend.counts[id]?.[i] ?? 0;
    return { week, share: all > 0 ? Math.round((n / all) * 10_000) / 10_000 : 0 };
  });
