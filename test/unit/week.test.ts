/** The views' week (lib/rules/week.ts): whole UTC days plus today, one slot a day, a day leaving with no write. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_SLOTS, dayOf, inWeek, slotOf, WEEK_DAYS, weekViews } from '#rules/week.ts';

describe("the views' week", () => {
  it('is today and the 7 whole UTC days before it: a view at 00:00 UTC eight days ago is out, one a millisecond later in', () => {
    const now = Date.parse('2026-11-26T10:00:00Z');
    const today = dayOf(now);
    expect(dayOf(Date.parse('2026-11-26T00:00:00Z'))).toBe(today);
    expect(dayOf(Date.parse('2026-11-25T23:59:59.999Z'))).toBe(today - 1);
    expect(inWeek(dayOf(Date.parse('2026-11-19T00:00:00Z')), today)).toBe(true);
    expect(inWeek(dayOf(Date.parse('2026-11-18T23:59:59.999Z')), today)).toBe(false);
    expect(inWeek(today + 1, today)).toBe(false);
    expect(WEEK_DAYS).toBe(7);
  });

  it("the week's days have a slot each; a slot is reused only by a day out of the week it held", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (today) => {
        const days = Array.from({ length: WEEK_DAYS + 1 }, (_, i) => today - i);
        expect(new Set(days.map(slotOf)).size).toBe(DAY_SLOTS);
        // The day a slot held before today's is 8 before: out of today's week.
        expect(inWeek(today - DAY_SLOTS, today)).toBe(false);
        expect(slotOf(today - DAY_SLOTS)).toBe(slotOf(today));
      }),
    );
  });

  it("a deck's week is the views of its slots whose day is in it, whatever other days the slots hold", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 20, max: 100_000 }),
        fc.array(fc.record({ ago: fc.integer({ min: -2, max: 20 }), views: fc.nat(1_000) }), { maxLength: 8 }),
        (today, slots) => {
          const held = slots.map(({ ago, views }) => ({ day: today - ago, views }));
          const inside = slots.filter(({ ago }) => ago >= 0 && ago <= WEEK_DAYS).reduce((n, s) => n + s.views, 0);
          return weekViews(held, today) === inside;
        },
      ),
    );
  });
});
