/**
 * What the library plays (contract §10.3), the pure part: any sequence of deck changes, summed in batches
 * of any size, adds up to a recount of the decks as they end; the figures as the API shows them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import type { FactionId } from '#rules/factions.ts';
import {
  addChange,
  type Contribution,
  cardFigures,
  contributionOf,
  type Delta,
  emptyDelta,
  factionFigures,
  nonZero,
  recount,
  TOP_TAGS,
} from '#rules/meta.ts';
import { legalCode } from '../support/decks.ts';

const demo = demoCatalogue();
const PAIRS: [FactionId, FactionId][] = [
  ['soviet', 'usa'],
  ['soviet', 'britain'],
  ['germany', 'italy'],
  ['japan', 'usa'],
];
/** A deck as the figures read it: any of a few pairs, codes, tags and visibilities. */
const deck = fc
  .tuple(
    fc.nat(PAIRS.length - 1),
    fc.nat(30),
    fc.subarray(['aggro', 'control', 'meta', 'otk']),
    fc.constantFrom('public', 'public', 'unlisted', 'private'),
  )
  .map(([p, offset, tags, visibility]) => {
    const [main, ally] = PAIRS[p] as [FactionId, FactionId];
    return contributionOf({ visibility, main_faction: main, ally_faction: ally, tags, deck_code: legalCode(demo, main, ally, 12, offset) });
  });

/** Figures plus a summed delta, as the store's ADDs make them. */
function apply(figures: Delta, d: Delta): Delta {
  const out = structuredClone(figures);
  out.decks += d.decks;
  for (const [scope, s] of Object.entries(d.scopes)) {
    const to = out.scopes[scope] ?? { decks: 0, cards: {} };
    out.scopes[scope] = to;
    to.decks += s.decks;
    for (const [id, c] of Object.entries(s.cards)) {
      const card = to.cards[id] ?? { decks: 0, copies: 0 };
      to.cards[id] = card;
      card.decks += c.decks;
      card.copies += c.copies;
    }
  }
  for (const [k, n] of Object.entries(d.pairs)) out.pairs[k] = (out.pairs[k] ?? 0) + n;
  for (const [k, n] of Object.entries(d.tags)) out.tags[k] = (out.tags[k] ?? 0) + n;
  return nonZero(out);
}

describe('figures kept from changes', () => {
  it('any changes of any decks, summed in batches of any size, equal a recount of the decks as they end', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(9), deck), { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 20 }),
        (changes, sizes) => {
          const now = new Map<number, Contribution | null>();
          let figures = emptyDelta();
          let batch = emptyDelta();
          let left = sizes[0] as number;
          let b = 0;
          for (const [id, after] of changes) {
            addChange(batch, now.get(id) ?? null, after);
            now.set(id, after);
            if (--left === 0) {
              figures = apply(figures, nonZero(batch));
              batch = emptyDelta();
              left = sizes[++b % sizes.length] as number;
            }
          }
          figures = apply(figures, nonZero(batch));
          expect(figures).toEqual(recount(now.values()));
        },
      ),
    );
  });

  it('unlisted and private decks add nothing; a public deck adds to its main, its pair, the pairs and its tags', () => {
    const code = legalCode(demo, 'soviet', 'usa');
    for (const visibility of ['unlisted', 'private'])
      expect(contributionOf({ visibility, main_faction: 'soviet', ally_faction: 'usa', deck_code: code })).toBeNull();
    const c = contributionOf({
      visibility: 'public',
      main_faction: 'soviet',
      ally_faction: 'usa',
      tags: ['meta', 'aggro', 'meta'],
      deck_code: code,
    });
    const d = recount([c]);
    expect(Object.keys(d.scopes).sort()).toEqual(['soviet', 'soviet:usa']);
    expect([d.decks, d.pairs, d.tags]).toEqual([1, { 'soviet:usa': 1 }, { aggro: 1, meta: 1 }]);
    expect(Object.keys(d.scopes.soviet?.cards ?? {}).length).toBe(parseDeckCode(code).cards.length);
  });
});

describe('the figures as the API shows them', () => {
  it('cards by decks, then id; share and average copies rounded; type keeps its own', () => {
    const decks = Array.from({ length: 7 }, (_, i) =>
      contributionOf({
        visibility: 'public',
        main_faction: 'soviet',
        ally_faction: 'usa',
        deck_code: legalCode(demo, 'soviet', 'usa', 12, i % 3),
      }),
    );
    const scope = recount(decks).scopes.soviet as NonNullable<Delta['scopes'][string]>;
    const rows = cardFigures(scope, demo, 'en');
    expect(rows.map((r) => [r.decks, r.card_id])).toEqual(
      [...rows].sort((a, b) => b.decks - a.decks || (a.card_id < b.card_id ? -1 : 1)).map((r) => [r.decks, r.card_id]),
    );
    for (const r of rows) {
      const c = scope.cards[r.card_id] as { decks: number; copies: number };
      expect(r.share).toBe(Math.round((c.decks / 7) * 10_000) / 10_000);
      expect(r.average_copies).toBe(Math.round((c.copies / c.decks) * 100) / 100);
      expect(r.name).toBe(demo.get(r.card_id)?.name);
    }
    const tanks = cardFigures(scope, demo, 'de', 'tank');
    expect(tanks.length).toBeGreaterThan(0);
    for (const r of tanks) expect([demo.get(r.card_id)?.type, r.name]).toEqual(['tank', demo.get(r.card_id)?.names?.de]);
  });

  it('pairs by decks with their share; the most used tags, at most 50', () => {
    const tags = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`t${i}`, i % 9]));
    const { pairs, tags: top } = factionFigures(10, { 'soviet:usa': 6, 'germany:italy': 4, 'japan:usa': 0 }, tags);
    expect(pairs).toEqual([
      { main_faction: 'soviet', ally_faction: 'usa', decks: 6, share: 0.6 },
      { main_faction: 'germany', ally_faction: 'italy', decks: 4, share: 0.4 },
    ]);
    expect(top.length).toBe(TOP_TAGS);
    expect(top.map((t) => t.decks)).toEqual([...top.map((t) => t.decks)].sort((a, b) => b - a));
  });
});
