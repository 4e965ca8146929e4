/** An answer's size as Lambda receives it (lib/http/answer-size.ts), against JSON.stringify done twice, over any JSON value. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sentSize, withinBudget } from '#http/answer-size.ts';

const twice = (value: unknown) => Buffer.byteLength(JSON.stringify(JSON.stringify(value))) - 2;

describe('sentSize', () => {
  it('is the bytes of the value as a string in the answer’s JSON, for any JSON value (quotes, backslashes, controls, any Unicode)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        expect(sentSize(value)).toBe(twice(value));
      }),
      { numRuns: 500 },
    );
    expect(sentSize({ a: '"\\' })).toBe(twice({ a: '"\\' }));
  });

  it('withinBudget keeps the longest head within the budget, and never less than one item', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 50 })), fc.integer({ min: 0, max: 400 }), (items, budget) => {
        const kept = withinBudget(items, budget);
        expect(items.slice(0, kept.length)).toEqual(kept);
        if (items.length > 0) expect(kept.length).toBeGreaterThan(0);
        const size = kept.reduce((n, item) => n + sentSize(item), 0);
        if (kept.length > 1) expect(size).toBeLessThanOrEqual(budget);
        if (kept.length < items.length) expect(size + sentSize(items[kept.length])).toBeGreaterThan(budget);
      }),
    );
  });
});
