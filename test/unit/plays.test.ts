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
  addDistinct,
  COUNTED_NAMES,
  type Contribution,
  codeOf,
  contributionOf,
  copyDelta,
  type Delta,
  emptyDelta,
  nonZero,
  recount,
} from '#rules/plays.ts';
import { byCodePoints, cardFigures, factionFigures, TOP_TAGS, tagRank } from '#rules/plays-shown.ts';
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
    return seen(
      contributionOf({ visibility, main_faction: main, ally_faction: ally, tags, deck_code: legalCode(demo, main, ally, 12, offset) }),
    );
  });

/** Every contribution a test made, by code (what the store finds among a batch's decks). */
const byCode = new Map<string, Contribution>();
const seen = (c: Contribution | null) => {
  if (c) byCode.set(codeOf(c), c);
  return c;
};

/**
 * Figures plus a summed delta, as the store writes them: the distinct pools moved by the codes whose count leaves
 * or reaches 0 against the counts stored (lib/store/plays.ts writeChunk), then every figure ADDed.
 */
function apply(figures: Delta, summed: Delta): Delta {
  const d = nonZero(addDistinct(copyDelta(summed), figures.counts.codes, (code) => byCode.get(code)));
  const out = copyDelta(figures);
  out.decks += d.decks;
  for (const [pool, s] of d.pools) {
    const to = out.pools.get(pool) ?? { decks: 0, cards: new Map() };
    out.pools.set(pool, to);
    to.decks += s.decks;
    for (const [id, c] of s.cards) {
      const card = to.cards.get(id) ?? { decks: 0, copies: 0 };
      to.cards.set(id, card);
      card.decks += c.decks;
      card.copies += c.copies;
    }
  }
  for (const name of COUNTED_NAMES) for (const [k, n] of d.counts[name]) out.counts[name].set(k, (out.counts[name].get(k) ?? 0) + n);
  return nonZero(out);
}

describe('figures kept from changes', () => {
  it('any changes of any decks, summed in batches of any size, equal a recount of the decks as they end (the distinct pools and codes too)', () => {
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
          // Counted apart: a main faction's distinct figures are over its public decks' distinct codes.
          for (const main of ['soviet', 'germany', 'japan']) {
            const codes = new Set([...now.values()].filter((c) => c?.main === main).map((c) => codeOf(c as Contribution)));
            expect(figures.pools.get(`=${main}`)?.decks ?? 0).toBe(codes.size);
          }
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
    expect([...d.pools.keys()].sort()).toEqual(['=soviet', '=soviet:usa', 'soviet', 'soviet:usa']);
    expect(d.counts.codes).toEqual(new Map([[codeOf(c as Contribution), 1]]));
    expect([d.decks, d.counts.pairs, d.counts.tags]).toEqual([
      1,
      new Map([['soviet:usa', 1]]),
      new Map([
        ['aggro', 1],
        ['meta', 1],
      ]),
    ]);
    expect(d.pools.get('soviet')?.cards.size).toBe(parseDeckCode(code).cards.length);
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
    const pool = recount(decks).pools.get('soviet') as NonNullable<ReturnType<Delta['pools']['get']>>;
    const rows = cardFigures(pool, demo, 'en');
    expect(rows.map((r) => [r.decks, r.card_id])).toEqual(
      [...rows].sort((a, b) => b.decks - a.decks || (a.card_id < b.card_id ? -1 : 1)).map((r) => [r.decks, r.card_id]),
    );
    for (const r of rows) {
      const c = pool.cards.get(r.card_id) as { decks: number; copies: number };
      expect(r.share).toBe(Math.round((c.decks / 7) * 10_000) / 10_000);
      expect(r.average_copies).toBe(Math.round((c.copies / c.decks) * 100) / 100);
      expect(r.name).toBe(demo.get(r.card_id)?.name);
    }
    const tanks = cardFigures(pool, demo, 'de', 'tank');
    expect(tanks.length).toBeGreaterThan(0);
    for (const r of tanks) expect([demo.get(r.card_id)?.type, r.name]).toEqual(['tank', demo.get(r.card_id)?.names?.de]);
  });

  it('pairs by decks with their share; the most used tags, at most 50', () => {
    const tags = new Map(Array.from({ length: 70 }, (_, i) => [`t${i}`, i % 9] as const));
    const pairs0 = new Map([
      ['soviet:usa', 6],
      ['germany:italy', 4],
      ['japan:usa', 0],
    ]);
    const { pairs, tags: top } = factionFigures(10, pairs0, tags);
    expect(pairs).toEqual([
      { main_faction: 'soviet', ally_faction: 'usa', decks: 6, share: 0.6 },
      { main_faction: 'germany', ally_faction: 'italy', decks: 4, share: 0.4 },
    ]);
    expect(top.length).toBe(TOP_TAGS);
    expect(top.map((t) => t.decks)).toEqual([...top.map((t) => t.decks)].sort((a, b) => b - a));
  });
});

describe("text a person chooses is a key like any other (issue 41): every name of Object's and Function's prototypes", () => {
  /** Every own property name of Object.prototype and Function.prototype, as typed and as a tag stores it (lower case). */
  const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype)])];
  const TAG_NAMES = [...new Set([...NAMES, ...NAMES.map((n) => n.toLowerCase())])];

  it('as tags: each counted, summed and recounted as a number, none lost', () => {
    const code = legalCode(demo, 'soviet', 'usa');
    const decks = TAG_NAMES.map((tag, i) =>
      contributionOf({
        visibility: 'public',
        main_faction: 'soviet',
        ally_faction: 'usa',
        tags: [tag, TAG_NAMES[(i + 1) % TAG_NAMES.length] as string],
        deck_code: code,
      }),
    );
    const total = recount(decks);
    expect(total.counts.tags.size).toBe(TAG_NAMES.length);
    for (const tag of TAG_NAMES) expect([tag, total.counts.tags.get(tag)]).toEqual([tag, 2]);
    // Taken out again, one by one: every tag back to nothing.
    const batch = emptyDelta();
    for (const c of decks) addChange(batch, c, null);
    expect(nonZero(apply(total, nonZero(batch)))).toEqual(emptyDelta());
    // The answer: every figure a number, in order.
    const { tags } = factionFigures(decks.length, total.counts.pairs, total.counts.tags);
    for (const t of tags) expect(typeof t.decks).toBe('number');
    expect(tags.map((t) => t.tag)).toEqual([...TAG_NAMES].sort(byCodePoints).slice(0, TOP_TAGS));
  });

  it("a tag's rank orders most decks first, then the tag by code points, as the figures do", () => {
    const figures: [string, number][] = [
      ['b', 3],
      ['a', 3],
      ['constructor', 1],
      ['\u{1F600}', 2],
      ['\uFF5E', 2],
      ['__proto__', 12],
    ];
    // DynamoDB orders a string sort key by its UTF-8 bytes: by code points.
    const byRank = [...figures].sort(([ta, a], [tb, b]) => byCodePoints(tagRank(ta, a), tagRank(tb, b))).map(([t]) => t);
    expect(byRank).toEqual(factionFigures(1, new Map(), figures).tags.map((t) => t.tag));
    expect(byRank).toEqual(['__proto__', 'a', 'b', '\uFF5E', '\u{1F600}', 'constructor']);
  });
});
