/** Answer shapes derived from the rules' one declaration of a section (lib/shapes/answered.ts). */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import * as R from '#rules/schemas.ts';
import { answered } from '#shapes/answered.ts';
import * as S from '#shapes/responses.ts';

const guide = { system: 'Tempo', description: '', core_cards: ['7X'], reserve_recommendations: [] };

describe('answered', () => {
  it("an answer holds every field input may leave out, and nothing else: the rules' own fields, each present", () => {
    expect(v.is(S.Guide, guide)).toBe(true);
    // Input fills description and the lists; an answer must carry them.
    expect(v.is(R.Guide, { system: 'Tempo' })).toBe(true);
    expect(v.is(S.Guide, { system: 'Tempo' })).toBe(false);
    expect(v.is(S.Guide, { ...guide, extra: 1 })).toBe(false);
    expect(Object.keys((S.Guide as unknown as { entries: object }).entries)).toEqual(Object.keys(R.Guide.entries));
    expect(Object.keys((S.GuideSummary as unknown as { entries: object }).entries)).toEqual([
      'system',
      'core_cards',
      'reserve_recommendations',
    ]);
  });

  it('an answer accepts what a deck stored under earlier rules holds, which input now refuses', () => {
    // An invisible character in guide.system (refused since contract §9.1), a reason over today's limit.
    const old = { ...guide, system: 'aggro\u200b' };
    expect(v.is(R.Guide, old)).toBe(false);
    expect(v.is(S.Guide, old)).toBe(true);
    const longReason = { enabled: true, items: [{ card_id: '7X', reason: 'x'.repeat(10_000) }] };
    expect(v.is(R.KeyComponents, longReason)).toBe(false);
    expect(v.is(S.KeyComponents, longReason)).toBe(true);
  });

  it('keeps kinds: a count stays an integer, never negative; optional stays optional; nullable stays nullable', () => {
    const chart = (required: number, label?: string) => ({
      otkConfig: { items: [{ card_ids: ['7X'], required, ...(label === undefined ? {} : { label }) }] },
    });
    expect(v.is(S.ChartSettings, chart(2))).toBe(true);
    expect(v.is(S.ChartSettings, chart(2, 'combo'))).toBe(true);
    expect(v.is(S.ChartSettings, chart(1.5))).toBe(false);
    expect(v.is(S.ChartSettings, chart(-1))).toBe(false);
    const shape = answered(v.strictObject({ a: v.nullable(v.string()), b: v.optional(v.boolean()), c: v.picklist(['x', 'y']) }));
    expect(v.is(shape, { a: null, c: 'x' })).toBe(true);
    expect(v.is(shape, { a: 'z', b: true, c: 'z' })).toBe(false);
  });

  it('refuses to derive from a kind it does not know, rather than answer loosely', () => {
    expect(() => answered(v.strictObject({ when: v.date() }))).toThrow(/no answer shape for a date schema/);
  });
});
