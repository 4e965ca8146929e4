/** The archetypes' trend (contract §13.3; lib/rules/archetype-trend.ts), pure: weeks from Monday, 8 kept, shares. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_TREND, sharesOf, TREND_WEEKS, type Trend, trendRead, weekOf, withWeek } from '#rules/archetype-trend.ts';

const at = (iso: string) => new Date(iso);
const counts = (entries: [string, number][]) => new Map(entries);

describe('archetype trend', () => {
  it('a week is from Monday 00:00 UTC to Sunday 23:59:59.999', () => {
    expect(weekOf(at('2026-11-23T00:00:00.000Z'))).toBe('2026-11-23'); // a Monday
    expect(weekOf(at('2026-11-29T23:59:59.999Z'))).toBe('2026-11-23'); // the Sunday after
    expect(weekOf(at('2026-11-30T00:00:00.000Z'))).toBe('2026-11-30');
    expect(weekOf(at('1970-01-01T12:00:00Z'))).toBe('1969-12-29'); // the epoch's Thursday
    expect(weekOf(at('1969-12-28T12:00:00Z'))).toBe('1969-12-22'); // before the epoch
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 4e12 }), (ms) => {
        const week = weekOf(new Date(ms));
        const monday = Date.parse(week);
        return new Date(monday).getUTCDay() === 1 && monday <= ms && ms < monday + 7 * 86_400_000;
      }),
    );
  });

  it("a run in the same week replaces its figures; a later week's are added; an archetype counted nowhere is dropped", () => {
    const first = withWeek(
      NO_TREND,
      at('2026-11-24T05:15:00Z'),
      10,
      counts([
        ['a', 2],
        ['b', 0],
      ]),
    );
    expect(first).toEqual({ weeks: ['2026-11-23'], decks: [10], counts: { a: [2] } });
    const again = withWeek(
      first,
      at('2026-11-29T05:15:00Z'),
      12,
      counts([
        ['a', 3],
        ['b', 1],
      ]),
    );
    expect(again).toEqual({ weeks: ['2026-11-23'], decks: [12], counts: { a: [3], b: [1] } });
    const next = withWeek(again, at('2026-11-30T05:15:00Z'), 20, counts([['b', 5]]));
    expect(next).toEqual({ weeks: ['2026-11-23', '2026-11-30'], decks: [12, 20], counts: { a: [3, 0], b: [1, 5] } });
    expect(sharesOf(next, 'b')).toEqual([
      { week: '2026-11-23', share: 0.0833 },
      { week: '2026-11-30', share: 0.25 },
    ]);
    expect(sharesOf(next, 'never')).toEqual([
      { week: '2026-11-23', share: 0 },
      { week: '2026-11-30', share: 0 },
    ]);
    // Weeks with no public deck share nothing (no division by zero).
    expect(sharesOf(withWeek(NO_TREND, at('2026-11-30T00:00:00Z'), 0, counts([])), 'a')).toEqual([{ week: '2026-11-30', share: 0 }]);
  });

  it(`keeps the last ${TREND_WEEKS} weeks (a week missed stays missing); a clock set back drops the weeks after it`, () => {
    let trend: Trend = NO_TREND;
    // Twelve weekly runs, Mondays from 2026-09-07, the seventh (2026-10-19) missed.
    for (let w = 0; w < 12; w++) {
      if (w === 6) continue;
      trend = withWeek(trend, new Date(Date.parse('2026-09-07T05:15:00Z') + w * 7 * 86_400_000), 100 + w, counts([['a', w]]));
    }
    expect(trend.weeks).toEqual(['2026-10-05', '2026-10-12', '2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23']);
    expect(trend.decks).toEqual([104, 105, 107, 108, 109, 110, 111]);
    expect(trend.counts.a).toEqual([4, 5, 7, 8, 9, 10, 11]);
    // Two weeks on (one missed): the weeks more than 7 before it are gone, the missed ones are no point at all.
    const later = withWeek(trend, at('2026-12-07T00:00:00Z'), 1, counts([]));
    expect(later.weeks).toEqual(['2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23', '2026-12-07']);
    expect(later.counts.a).toEqual([7, 8, 9, 10, 11, 0]);
    const back = withWeek(trend, at('2026-10-20T00:00:00Z'), 7, counts([['a', 7]]));
    expect(back.weeks).toEqual(['2026-10-05', '2026-10-12', '2026-10-19']);
    expect(back.counts.a).toEqual([4, 5, 7]);
  });

  it('any runs: at most 8 weeks, oldest first, within 8 weeks of the last, every row as long as the weeks', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            days: fc.integer({ min: 0, max: 20 }),
            decks: fc.nat(1000),
            counts: fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.nat(50)),
          }),
          { maxLength: 40 },
        ),
        (runs) => {
          let trend: Trend = NO_TREND;
          let ms = Date.parse('2026-01-01T00:00:00Z');
          for (const run of runs) {
            ms += run.days * 86_400_000;
            trend = withWeek(trend, new Date(ms), run.decks, new Map(Object.entries(run.counts)));
            const { weeks } = trend;
            expect(weeks.length).toBeLessThanOrEqual(TREND_WEEKS);
            expect([...weeks].sort()).toEqual(weeks);
            expect(new Set(weeks).size).toBe(weeks.length);
            expect(weeks.at(-1)).toBe(weekOf(new Date(ms)));
            expect(Date.parse(weeks.at(-1) as string) - Date.parse(weeks[0] as string)).toBeLessThan(TREND_WEEKS * 7 * 86_400_000);
            expect(trend.decks).toHaveLength(weeks.length);
            for (const row of Object.values(trend.counts)) {
              expect(row).toHaveLength(weeks.length);
              expect(row.some((n) => n > 0)).toBe(true);
            }
            expect(trend.decks.at(-1)).toBe(run.decks);
          }
        },
      ),
    );
  });

  it('a stored trend is read when it is one, else none: weeks in order and each once, rows aligned', () => {
    const good = { weeks: ['2026-11-16', '2026-11-23'], decks: [4, 7], counts: { a: [1, 3] } };
    expect(trendRead(good)).toEqual(good);
    for (const bad of [
      undefined,
      null,
      'x',
      { weeks: ['2026-11-16'], decks: [3] },
      { weeks: ['2026-11-16'], decks: [3, 4], counts: {} },
      { weeks: ['2026-11-16'], decks: [3], counts: { a: [1, 2] } },
      { weeks: ['2026-11-23', '2026-11-16'], decks: [3, 4], counts: {} },
      { weeks: ['2026-11-16', '2026-11-16'], decks: [3, 4], counts: {} },
      { weeks: ['not a date'], decks: [3], counts: {} },
      { weeks: ['2026-11-16'], decks: [-1], counts: {} },
    ]) {
      expect(trendRead(bad)).toEqual(NO_TREND);
    }
    // Read back, then folded: never more than the weeks kept.
    const kept = withWeek(trendRead(good), new Date('2026-11-30T00:00:00Z'), 9, new Map([['a', 2]]));
    expect(kept.weeks).toEqual(['2026-11-16', '2026-11-23', '2026-11-30']);
  });
});
