/**
 * The store-change worker's pure parts: which view totals are looked at for a fold, what moved in a
 * bucket, how a batch's records become work (one piece per item, from its first record), and the event
 * filter patterns the local poller applies as the event source mapping does.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { VIEWS_FOLD_MIN, viewStepPassed, viewsFoldDue, viewsFoldWithinBound } from '#store/counters.ts';
import { bucketOf } from '#store/items/view-bucket.ts';
import { DECKS_PER_UPDATE, type LoggedBatch } from '#store/view-log.ts';
import { matchesFilter, WORKERS } from '#workers';
import { batchHandler } from '#workers/batch.ts';
import { workOf as erasureWork } from '#workers/erasure.ts';
import { workOf } from '#workers/store-changes.ts';
import { loggedBatches, runsOf } from '#workers/view-log.ts';
import { movedCounts } from '#workers/views.ts';
import { legalCode } from '../support/decks.ts';

describe('view steps', () => {
  it('25, 50, 75, 100, 125, 156, …: each max(25, 25%) beyond the last', () => {
    const steps = Array.from({ length: 1_000 }, (_, n) => n + 1).filter((n) => viewStepPassed(n - 1, n));
    expect(steps.slice(0, 8)).toEqual([25, 50, 75, 100, 125, 156, 195, 243]);
  });

  it('a move passes a step exactly when some step lies in (before, after]; a deck is looked at O(log n) times over n views', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 5_000 }), (before, more) => {
        const after = before + more;
        let passed = false;
        for (let n = before + 1; n <= after && !passed; n++) passed = viewStepPassed(n - 1, n);
        return viewStepPassed(before, after) === passed;
      }),
    );
    const looked = Array.from({ length: 1_000_000 }, (_, n) => n + 1).filter((n) => viewStepPassed(n - 1, n)).length;
    expect(looked).toBeLessThan(60);
    expect(viewStepPassed(0, VIEWS_FOLD_MIN - 1)).toBe(false);
  });
});

describe('views folded at rest', () => {
  it('however a total arrives in runs (windows, retries), the folded value ends within the documented bound', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 2, max: 54 }),
        (runs, items) => {
          let total = 0;
          let folded = 0;
          for (const views of runs) {
            if (viewsFoldDue(folded, total, total + views, items)) folded = total + views;
            total += views;
          }
          return viewsFoldWithinBound(folded, total, items);
        },
      ),
    );
  });

  it('the bound is not empty: a deck never folded at 120 views, or folded past its total, is outside it', () => {
    expect(viewsFoldWithinBound(0, 120, 13)).toBe(false);
    expect(viewsFoldWithinBound(121, 120, 13)).toBe(false);
    // 120 views of a 13-item deck: the last step passed is 100, a fold step is 39 there.
    expect(viewsFoldWithinBound(61, 120, 13)).toBe(false);
    expect(viewsFoldWithinBound(62, 120, 13)).toBe(true);
    expect(viewsFoldWithinBound(0, 24, 13)).toBe(true);
  });
});

describe('what moved in a bucket', () => {
  it('each deck count that changed, appeared or was taken out; other attributes ignored', () => {
    const before = { pk: 'VIEWS#001', sk: 'VIEWS', v_a: 3, v_b: 5, v_gone: 2 };
    const after = { pk: 'VIEWS#001', sk: 'VIEWS', v_a: 3, v_b: 9, v_new: 1 };
    expect(movedCounts([[before, after]])).toEqual(
      new Map([
        ['b', { before: 5, after: 9, appeared: false }],
        ['gone', { before: 2, after: undefined, appeared: false }],
        ['new', { before: undefined, after: 1, appeared: true }],
      ]),
    );
    expect(movedCounts([[undefined, { v_x: 4 }]])).toEqual(new Map([['x', { before: undefined, after: 4, appeared: true }]]));
  });

  it('over a run of changes: from the first move to the last; a count taken out and brought back has appeared', () => {
    const run: [Record<string, number>, Record<string, number>][] = [
      [
        { v_a: 5, v_b: 1 },
        { v_a: 5, v_b: 2 },
      ],
      [{ v_a: 5, v_b: 2 }, { v_b: 2 }],
      [{ v_b: 2 }, { v_a: 5, v_b: 30 }],
    ];
    expect(movedCounts(run)).toEqual(
      new Map([
        ['b', { before: 1, after: 30, appeared: false }],
        ['a', { before: 5, after: 5, appeared: true }],
      ]),
    );
  });
});

const S = (s: string) => ({ S: s });
const N = (n: number) => ({ N: String(n) });
const record = (
  sequence: number,
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  keys: { pk: string; sk: string },
  images: { OldImage?: object; NewImage?: object } = {},
) =>
  ({
    eventName,
    dynamodb: { Keys: { pk: S(keys.pk), sk: S(keys.sk) }, SequenceNumber: String(sequence).padStart(21, '0'), ...images },
  }) as DynamoDBRecord;

describe('a batch of records as work', () => {
  it('one piece per item, starting at its first record; a counter taken out and other items ask for nothing', () => {
    const counter = { pk: 'COUNT#abc', sk: 'COUNT' };
    const work = workOf([
      record(1, 'MODIFY', counter, { NewImage: { likes: N(1), changes: N(1) } }),
      record(2, 'MODIFY', { pk: 'VIEWS#007', sk: 'VIEWS' }, { OldImage: { v_x: N(1) }, NewImage: { v_x: N(30) } }),
      record(3, 'MODIFY', counter, { NewImage: { likes: N(2), changes: N(2) } }),
      record(4, 'REMOVE', { pk: 'USER#u', sk: 'DECK#d' }, { OldImage: { share_slug: S('abc'), deck_id: S('d') } }),
      record(5, 'REMOVE', { pk: 'COUNT#gone', sk: 'COUNT' }, { OldImage: { likes: N(3) } }),
      record(6, 'INSERT', { pk: 'SEARCH#d', sk: 'all' }),
    ]);
    expect(work.map((w) => Number(w.first))).toEqual([1, 2, 4]);
  });
});

describe("the figures of what the library plays (contract §10.3): the batch's decks that changed what they add", () => {
  const deck = (visibility: string, extra: object = {}) => ({
    visibility: S(visibility),
    main_faction: S('soviet'),
    ally_faction: S('usa'),
    tags: { L: [S('aggro')] },
    deck_code: S(legalCode(demoCatalogue(), 'soviet', 'usa')),
    ...extra,
  });
  it('one piece for all of them, from the earliest of their records; a fold, a rename or a private deck changing asks for nothing', () => {
    const work = workOf([
      // A view fold of a public deck: its figures are the same.
      record(1, 'MODIFY', { pk: 'USER#u', sk: 'DECK#a' }, { OldImage: deck('public'), NewImage: deck('public', { views: N(40) }) }),
      // Made private: it leaves the figures.
      record(2, 'MODIFY', { pk: 'USER#u', sk: 'DECK#b' }, { OldImage: deck('public'), NewImage: deck('private') }),
      // A private deck renamed: nothing.
      record(3, 'MODIFY', { pk: 'USER#v', sk: 'DECK#c' }, { OldImage: deck('private'), NewImage: deck('private', { name: S('x') }) }),
      // Created public.
      record(4, 'INSERT', { pk: 'USER#v', sk: 'DECK#d' }, { NewImage: deck('public') }),
      // Another tag.
      record(
        5,
        'MODIFY',
        { pk: 'USER#u', sk: 'DECK#a' },
        { OldImage: deck('public'), NewImage: deck('public', { tags: { L: [S('meta')] } }) },
      ),
    ]);
    expect(work.map((w) => Number(w.first))).toEqual([1]);
    const pieces = workOf([
      record(7, 'MODIFY', { pk: 'USER#u', sk: 'DECK#a' }, { OldImage: deck('public'), NewImage: deck('public', { views: N(40) }) }),
      record(8, 'MODIFY', { pk: 'USER#v', sk: 'DECK#c' }, { OldImage: deck('private'), NewImage: deck('private', { name: S('x') }) }),
    ]);
    expect(pieces).toEqual([]);
  });
});

describe('a batch handler (every stream worker)', () => {
  const records = [1, 2, 3, 4].map((n) => record(n, 'MODIFY', { pk: `ERASE#u${n}`, sk: 'ERASE' }));
  /** Work per record: its runs counted; the ones named fail. */
  const handler = (fails: number[], ms: number[] = []) => {
    const ran: number[] = [];
    const handle = batchHandler(
      'test',
      (rs) =>
        rs.map((r) => ({
          first: r.dynamodb?.SequenceNumber as string,
          run: async () => {
            const n = Number(r.dynamodb?.SequenceNumber);
            ran.push(n);
            if (fails.includes(n)) throw new Error(`work ${n} failed`);
          },
        })),
      1_000,
    );
    // A clock that loses the given ms as each piece of work is looked at.
    let left = 10_000;
    const context = { getRemainingTimeInMillis: () => (left -= ms.shift() ?? 0) };
    return { ran, run: () => handle({ Records: records }, context) };
  };

  it("one item's failing work holds up no other's: all run, the earliest failed record is named (retried from there)", async () => {
    const { ran, run } = handler([2, 4]);
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: records[1]?.dynamodb?.SequenceNumber }] });
    expect(ran.sort()).toEqual([1, 2, 3, 4]);
    const clean = handler([]);
    expect(await clean.run()).toEqual({ batchItemFailures: [] });
  });

  it('no work starts with less than its time left before the timeout: it is named for the retry, not begun', async () => {
    // 10 s, then 3 s, 5.5 s (1.5 s left: the third starts), 1 s (0.5 s left: the fourth does not).
    const { ran, run } = handler([], [0, 3_000, 5_500, 1_000]);
    expect(await run()).toEqual({ batchItemFailures: [{ itemIdentifier: records[3]?.dynamodb?.SequenceNumber }] });
    expect(ran.sort()).toEqual([1, 2, 3]);
  });

  it('the erasure worker: one step per account whose erasure item changed, from its first record; other items ask for nothing', () => {
    const work = erasureWork([
      record(1, 'MODIFY', { pk: 'ERASE#a', sk: 'ERASE' }),
      record(2, 'INSERT', { pk: 'ERASE#b', sk: 'ERASE' }),
      record(3, 'MODIFY', { pk: 'ERASE#a', sk: 'ERASE' }),
      record(4, 'MODIFY', { pk: 'KEY#k', sk: 'KEY' }),
    ]);
    expect(work.map((w) => Number(w.first))).toEqual([1, 2]);
  });
});

describe('event filter patterns, as the event source mapping reads them', () => {
  const [worker] = WORKERS;
  const matches = (r: DynamoDBRecord) => worker.filters.some((f) => matchesFilter(r, f));

  it("the worker is given counters, buckets and deck items — nothing else of the table's changes", () => {
    expect(matches(record(1, 'MODIFY', { pk: 'COUNT#abc', sk: 'COUNT' }))).toBe(true);
    expect(matches(record(1, 'INSERT', { pk: 'VIEWS#001', sk: 'VIEWS' }))).toBe(true);
    expect(matches(record(1, 'REMOVE', { pk: 'USER#u', sk: 'DECK#d' }))).toBe(true);
    expect(matches(record(1, 'MODIFY', { pk: 'USER#u', sk: 'DECK#d' }))).toBe(true);
    expect(matches(record(1, 'INSERT', { pk: 'USER#u', sk: 'DECK#d' }))).toBe(true);
    expect(matches(record(1, 'INSERT', { pk: 'SEARCH#d', sk: 'all' }))).toBe(false);
    expect(matches(record(1, 'INSERT', { pk: 'LIKE#abc', sk: 'u' }))).toBe(false);
  });

  it('a field the record lacks never matches; an own field only (not an inherited one)', () => {
    expect(matchesFilter({ dynamodb: {} }, { dynamodb: { Keys: { pk: { S: [{ prefix: 'COUNT#' }] } } } })).toBe(false);
    expect(matchesFilter({}, { constructor: ['x'] })).toBe(false);
    expect(matchesFilter({ eventName: 'REMOVE' }, { eventName: ['INSERT', 'REMOVE'] })).toBe(true);
  });
});

describe('view logs', () => {
  const batch = (ordinal: number, slugs: string[]): LoggedBatch => ({
    id: `b${ordinal}`,
    ordinal,
    views: Object.fromEntries(slugs.map((s) => [s, 1])),
  });

  it("the batches a run of a log's changes added, in ordinal order; a change that only takes batches out adds none", () => {
    const changes: [Record<string, unknown> | undefined, Record<string, unknown> | undefined][] = [
      [
        { n: 1, b_a: { x: 1 } },
        { n: 2, b_a: { x: 1 }, b_b: { y: 2 } },
      ],
      [undefined, { n: 1, b_a: { x: 1 } }],
      [{ n: 2, b_a: { x: 1 }, b_b: { y: 2 } }, { n: 2 }],
    ];
    expect(loggedBatches(changes).map((b) => [b.id, b.ordinal, b.views])).toEqual([
      ['a', 1, { x: 1 }],
      ['b', 2, { y: 2 }],
    ]);
  });

  it('runs keep the batches in order, give no bucket more than DECKS_PER_UPDATE decks (a batch of its own may), and end only when the next batch would', () => {
    // Decks of two buckets only, so that runs must split.
    const pool = Array.from({ length: 40_000 }, (_, n) => `s${n}`).filter((s) => bucketOf(s) < 2);
    const deckCount = (run: readonly LoggedBatch[]) => {
      const decks = new Map<number, Set<string>>();
      for (const b of run)
        for (const slug of Object.keys(b.views)) decks.set(bucketOf(slug), (decks.get(bucketOf(slug)) ?? new Set()).add(slug));
      return Math.max(0, ...[...decks.values()].map((d) => d.size));
    };
    // Three batches of 110 decks of one bucket: the third would take it to 330.
    const one = pool.filter((slug) => bucketOf(slug) === 0);
    const three = [0, 1, 2].map((i) => batch(i + 1, one.slice(i * 110, (i + 1) * 110)));
    expect(runsOf(three).map((run) => run.map((b) => b.ordinal))).toEqual([[1, 2], [3]]);
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.constantFrom(...pool), { maxLength: 250 }), { maxLength: 10 }), (lists) => {
        const batches = lists.map((list, i) => batch(i + 1, list));
        const runs = runsOf(batches);
        expect(runs.flat()).toEqual(batches);
        for (const [i, run] of runs.entries()) {
          if (run.length > 1) expect(deckCount(run)).toBeLessThanOrEqual(DECKS_PER_UPDATE);
          const next = runs[i + 1];
          if (next) expect(deckCount([...run, next[0] as LoggedBatch])).toBeGreaterThan(DECKS_PER_UPDATE);
        }
      }),
    );
  });
});
