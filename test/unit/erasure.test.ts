/**
 * The erasure worker's moves (rules/erasure.ts), over random times: it never closes the keys while the
 * last request may still be running, never ends before a sweep that came after every request the
 * closed keys authenticated, never waits longer than the settle time, and always moves on once the
 * time has come.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextErasureMove } from '#rules/erasure.ts';

const SETTLE = 15_000;
const T0 = Date.parse('2026-11-24T12:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

describe('nextErasureMove', () => {
  it('property: keys closed only past the last request + settle; the end only past the closing + settle; a wait at most settle, up to that time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60_000 }),
        fc.option(fc.integer({ min: 0, max: 60_000 }), { nil: undefined }),
        fc.integer({ min: 0, max: 120_000 }),
        (requested, closedAfter, since) => {
          const closed = closedAfter === undefined ? undefined : requested + closedAfter;
          const state = { requested_at: at(requested), ...(closed === undefined ? {} : { keys_closed_at: at(closed) }) };
          const from = closed ?? requested;
          // The worker reads the item after it was written (a clock behind the item's: the last case below).
          const nowOffset = from + since;
          const next = nextErasureMove(state, T0 + nowOffset, SETTLE);
          if (next.move === 'wait') {
            expect(next.ms).toBeGreaterThan(0);
            expect(next.ms).toBeLessThanOrEqual(SETTLE);
            // Waking when it ends is exactly when the time has come.
            expect(nextErasureMove(state, T0 + nowOffset + next.ms, SETTLE).move).not.toBe('wait');
          } else {
            expect(T0 + nowOffset).toBeGreaterThanOrEqual(T0 + from + SETTLE);
            expect(next.move).toBe(closed === undefined ? 'close_keys' : 'end');
          }
        },
      ),
    );
  });

  it('the cases by name', () => {
    expect(nextErasureMove({ requested_at: at(0) }, T0 + 1_000, SETTLE)).toEqual({ move: 'wait', ms: 14_000 });
    expect(nextErasureMove({ requested_at: at(0) }, T0 + 15_000, SETTLE)).toEqual({ move: 'close_keys' });
    expect(nextErasureMove({ requested_at: at(0), keys_closed_at: at(100) }, T0 + 15_000, SETTLE)).toEqual({ move: 'wait', ms: 100 });
    expect(nextErasureMove({ requested_at: at(0), keys_closed_at: at(100) }, T0 + 15_100, SETTLE)).toEqual({ move: 'end' });
    // A clock behind the item's: never more than one settle time.
    expect(nextErasureMove({ requested_at: at(60_000) }, T0, SETTLE)).toEqual({ move: 'wait', ms: SETTLE });
  });
});
