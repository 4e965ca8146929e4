/**
 * The store-change worker's pure parts: which view totals are looked at for a fold, what moved in a
 * deck's view count, how a batch's records become work (one piece per item, from its first record), and the event
 * filter patterns the local poller applies as the event source mapping does.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { matchesFilter, workerNamed } from '#routes/workers.ts';
import { VIEWS_FOLD_MIN, viewStepPassed, viewsFoldDue, viewsFoldWithinBound, weekFoldDue, weekFoldWithinBound } from '#rules/folds.ts';
import { slotOf, slotWrites } from '#rules/week.ts';
import { loggedBatches } from '#store/items/view-log.ts';
import { batchHandler } from '#workers/batch.ts';
import { workOf as erasureWork } from '#workers/erasure.ts';
import { workOf } from '#workers/store-changes.ts';
import { movedCount } from '#workers/view-folds.ts';
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
    expect(viewsFoldWithinBound(0, 120, 1)).toBe(false);
    expect(viewsFoldWithinBound(121, 120, 1)).toBe(false);
    // 120 views of a 1-item deck: the last step passed is 100, a fold step is 28 there (4 views a unit, 7 units an item).
    expect(viewsFoldWithinBound(72, 120, 1)).toBe(false);
    expect(viewsFoldWithinBound(73, 120, 1)).toBe(true);
    expect(viewsFoldWithinBound(0, 24, 1)).toBe(true);
    // 1,000 views of a 13-item deck: the last step passed is 921, a fold step 364 (13 × 7 units, 4 views each).
    expect(viewsFoldWithinBound(557, 1000, 13)).toBe(false);
    expect(viewsFoldWithinBound(558, 1000, 13)).toBe(true);
  });
});

describe('views of the week folded at rest', () => {
  it('however the week rises and falls in runs (views, days leaving it), and whenever a fold of the views carries it, it ends within the bound', () => {
    fc.assert(
      fc.property(
        // Each run: the week it ends at, and whether the views were folded then too (carrying the week along).
        fc.array(fc.tuple(fc.integer({ min: 0, max: 600 }), fc.boolean()), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 2, max: 54 }),
        (runs, items) => {
          let week = 0;
          let folded = 0;
          for (const [after, viewsFolded] of runs) {
            if (viewsFolded || weekFoldDue(folded, week, after, items)) folded = after;
            week = after;
          }
          return weekFoldWithinBound(folded, week, items);
        },
      ),
    );
  });

  it('the bound is not empty: a deck gone cold is 0; one folded far from its week is outside it', () => {
    expect(weekFoldWithinBound(60, 0, 1)).toBe(false);
    expect(weekFoldWithinBound(0, 0, 1)).toBe(true);
    // A week of 120 on a 1-item deck: a fold step of 28 from 0, steps 25 apart around 120.
    expect(weekFoldWithinBound(0, 120, 1)).toBe(false);
    expect(weekFoldWithinBound(100, 120, 1)).toBe(true);
    // Falling: 200 folded, the week now 60 (fold step at 200: 50; steps around 60: 25 apart).
    expect(weekFoldWithinBound(200, 60, 1)).toBe(false);
    expect(weekFoldDue(200, 200, 60, 1)).toBe(true);
    expect(weekFoldDue(30, 30, 0, 1)).toBe(true);
    expect(weekFoldDue(0, 10, 0, 1)).toBe(false);
  });
});

describe("what moved in a deck's view count", () => {
  const D = 20_003;
  /** A count image: its total, revision and views by day. */
  const count = (views: number, rev: number, byDay: Record<number, number> = {}, extra: Record<string, unknown> = {}) => ({
    pk: 'VIEWCOUNT#x',
    sk: 'VIEWS',
    views,
    rev,
    ...Object.fromEntries(
      Object.entries(byDay).flatMap(([day, n]) => [
        [`d${slotOf(Number(day))}`, Number(day)],
        [`n${slotOf(Number(day))}`, n],
      ]),
    ),
    ...extra,
  });

  it('its total, from the first change to the last; a count deleted and brought back has appeared; nothing moved, nothing to do', () => {
    expect(movedCount([[count(5, 1), count(9, 2)]])).toEqual({ before: 5, after: 9, appeared: false, weekBefore: 0, weekAfter: 0, rev: 2 });
    expect(movedCount([[undefined, count(4, 1)]])).toMatchObject({ before: undefined, after: 4, appeared: true });
    expect(movedCount([[count(4, 1), undefined]])).toMatchObject({ before: 4, after: undefined });
    expect(
      movedCount([
        [count(5, 1), undefined],
        [undefined, count(1, 1)],
        [count(1, 1), count(30, 2)],
      ]),
    ).toEqual({ before: 5, after: 30, appeared: true, weekBefore: 0, weekAfter: 0, rev: 2 });
    expect(movedCount([[count(5, 1), count(5, 1, {}, { applied: 3 })]])).toBeUndefined();
  });

  it("the week: a view in its day's slot moves it; a new day opened takes the day 8 before out of it", () => {
    // Days D−8 … D−1 in its week: 6 views of D−8 and 4 of D−1.
    const before = count(10, 6, { [D - 8]: 6, [D - 1]: 4 });
    const opened = { ...before, rev: 7, opened: D };
    expect(movedCount([[before, opened]])).toEqual({ before: 10, after: 10, appeared: false, weekBefore: 10, weekAfter: 4, rev: 7 });
    const viewed = count(11, 8, { [D - 1]: 4, [D]: 1 });
    expect(
      movedCount([
        [before, opened],
        [opened, viewed],
      ]),
    ).toEqual({ before: 10, after: 11, appeared: false, weekBefore: 10, weekAfter: 5, rev: 8 });
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
      record(
        2,
        'MODIFY',
        { pk: 'VIEWCOUNT#x', sk: 'VIEWS' },
        { OldImage: { views: N(1), rev: N(1) }, NewImage: { views: N(30), rev: N(2) } },
      ),
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
    expect(work.filter((w) => w.what.startsWith('the figures')).map((w) => Number(w.first))).toEqual([1]);
    // Webhooks (lib/webhooks/fan-out.ts): made private (unpublished), created public (published), a public deck's tags
    // moved (into or out of a subscriber's filters: published and unpublished, to the subscribers they reach); a fold or
    // a private rename is none.
    expect(work.filter((w) => !w.what.startsWith('the figures')).map((w) => [w.what, Number(w.first)])).toEqual([
      ['the webhook deliveries of 4 changes', 1],
    ]);
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
          what: `item ${r.dynamodb?.SequenceNumber}`,
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
  const worker = workerNamed('storeChanges');
  const matches = (r: DynamoDBRecord) => worker.filters.some((f) => matchesFilter(r, f));

  it("the worker is given counters, view counts and deck items — nothing else of the table's changes", () => {
    expect(matches(record(1, 'MODIFY', { pk: 'COUNT#abc', sk: 'COUNT' }))).toBe(true);
    expect(matches(record(1, 'INSERT', { pk: 'VIEWCOUNT#abc', sk: 'VIEWS' }))).toBe(true);
    expect(matches(record(1, 'INSERT', { pk: 'VIEWS#001', sk: 'VIEWS' }))).toBe(false);
    expect(matches(record(1, 'REMOVE', { pk: 'USER#u', sk: 'DECK#d' }))).toBe(true);
    expect(matches(record(1, 'MODIFY', { pk: 'USER#u', sk: 'DECK#d' }))).toBe(true);
    expect(matches(record(1, 'INSERT', { pk: 'USER#u', sk: 'DECK#d' }))).toBe(true);
    expect(matches(record(1, 'INSERT', { pk: 'SEARCH#d', sk: 'all' }))).toBe(false);
    expect(matches(record(1, 'INSERT', { pk: 'LIKE#abc', sk: 'u' }))).toBe(false);
    // The catalogue's pointer (another version in force: webhooks), not its parts, history or held version.
    expect(matches(record(1, 'MODIFY', { pk: 'CATALOGUE#', sk: 'NOW' }))).toBe(true);
    expect(matches(record(1, 'INSERT', { pk: 'CATALOGUE#', sk: 'HELD' }))).toBe(false);
    expect(matches(record(1, 'INSERT', { pk: 'CATALOGUE#abc', sk: '000' }))).toBe(false);
  });

  it('a field the record lacks never matches; an own field only (not an inherited one)', () => {
    expect(matchesFilter({ dynamodb: {} }, { dynamodb: { Keys: { pk: { S: [{ prefix: 'COUNT#' }] } } } })).toBe(false);
    expect(matchesFilter({}, { constructor: ['x'] })).toBe(false);
    expect(matchesFilter({ eventName: 'REMOVE' }, { eventName: ['INSERT', 'REMOVE'] })).toBe(true);
  });
});

describe('view logs', () => {
  const DAY = 20_000;

  it("the batches a run of a log's changes added, in ordinal order; a change that only takes batches out adds none", () => {
    const changes: [Record<string, unknown> | undefined, Record<string, unknown> | undefined][] = [
      [
        { n: 1, b_a: { x: 1 } },
        { n: 2, b_a: { x: 1 }, b_b: { y: { 20000: 2, 20001: 1 } } },
      ],
      [undefined, { n: 1, b_a: { x: 1 } }],
      [{ n: 2, b_a: { x: 1 }, b_b: { y: { 20000: 2 } } }, { n: 2 }],
    ];
    // A batch recorded before days were kept (a number a deck) holds its views under no day.
    expect(loggedBatches(changes).map((b) => [b.id, b.ordinal, b.views])).toEqual([
      ['a', 1, { x: { '': 1 } }],
      ['b', 2, { y: { 20000: 2, 20001: 1 } }],
    ]);
  });

  it("a count's slots: a day of the week goes in its slot, added when the slot holds it, opening it when it holds an older day; older views count in the total only", () => {
    const held = Array.from({ length: 8 }, (_, slot) => (slot === slotOf(DAY) ? DAY : slot === slotOf(DAY - 1) ? DAY - 9 : undefined));
    const writes = slotWrites(
      held,
      new Map([
        [DAY, 3],
        [DAY - 1, 2],
        [DAY - 2, 1],
        [DAY - 8, 5],
      ]),
      DAY,
    );
    expect(writes).toEqual([
      { slot: slotOf(DAY), day: DAY, views: 3, kind: 'add' },
      { slot: slotOf(DAY - 1), day: DAY - 1, views: 2, kind: 'open', held: DAY - 9 },
      { slot: slotOf(DAY - 2), day: DAY - 2, views: 1, kind: 'open', held: undefined },
    ]);
    // A slot that holds a later day than a late view's: the view counts in the total only.
    expect(
      slotWrites(
        Array.from({ length: 8 }, (_, slot) => (slot === slotOf(DAY) ? DAY : undefined)),
        new Map([[DAY - 8, 1]]),
        DAY,
      ),
    ).toEqual([]);
  });
});
