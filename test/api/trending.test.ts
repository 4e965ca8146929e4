/**
 * Trending (contract §10.3) on a runtime of its own (its day slots are moved here): search's `sort=trending`
 * follows the views of the last 7 days — whole UTC days plus today — and search items and the shared read
 * carry `views_7d`. Views reach the store as they do in AWS: served through HTTP (the access log, its
 * subscriber, the view-log worker), and, for days before today, log events of those days handed to the
 * countViews function as CloudWatch Logs hands them. A day leaves the week when the daily opener opens
 * the day 8 after it on each deck's count (invoked here as its schedule invokes it, with that day's time),
 * and the store-change worker folds the fall into search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_OPENER } from '#routes/workers.ts';
import { DAY_MS, dayOf } from '#rules/week.ts';
import { storedViews } from '#store/view-counts.ts';
import { openViewDay } from '#workers/open-day.ts';
import { asRoute } from '../../infra/local/grants-guard.ts';
import { scheduledEvent } from '../../infra/local/schedule.ts';
import { call, code, newOwner, type Owner } from '../support/api.ts';
import type { OwnRuntime } from '../support/runtime.ts';
import { settled } from '../support/settle.ts';
import { logViews, viewsRuntime } from '../support/views.ts';

let runtime: OwnRuntime | undefined;
let owner: Owner;
/** The decks, by name: cold (views 9 days ago only), late (views 7 days ago), warm and hot (views today). */
const decks: Record<'cold' | 'late' | 'warm' | 'hot', { id: string; share_slug: string }> = {} as never;

/** Views of days before today, as the access log's subscription hands them to countViews. */
const viewsOn = (slug: string, daysAgo: number, n: number) => logViews([[slug, n]], Date.now() - daysAgo * DAY_MS, 'trending');

/** Views served today, through HTTP (each a shared read answered 200). */
async function served(slug: string, n: number) {
  for (let i = 0; i < n; i += 10)
    await Promise.all(
      Array.from({ length: Math.min(10, n - i) }, async () => {
        const r = await call('GET', `/api/v1/decks/${slug}`);
        expect(r.status).toBe(200);
      }),
    );
}

/** Trending of the whole library (this runtime's four decks): a browsed order, exact at rest from its board. */
const trending = async () => {
  const r = await call('GET', '/api/v1/decks?sort=trending&limit=10');
  expect(r.status, r.text).toBe(200);
  return r.body.data as { id: string; views: number; views_7d: number }[];
};
const order = (items: { id: string }[]) => items.map((i) => Object.entries(decks).find(([, d]) => d.id === i.id)?.[0]);

beforeAll(async () => {
  // Days are UTC days: the test takes seconds, and starts clear of midnight.
  runtime = await viewsRuntime('trending', 120_000);
  owner = await newOwner();
  for (const [i, name] of (['cold', 'late', 'warm', 'hot'] as const).entries()) {
    const r = await call('POST', owner.decks, {
      key: owner.key,
      body: { deck_code: code('soviet', 'usa', i), guide: { system: 'Trend' }, tags: ['trend'], visibility: 'public' },
    });
    expect(r.status, r.text).toBe(201);
    decks[name] = r.body.data;
  }
}, 200_000);
afterAll(() => {
  return runtime?.close();
});

describe('trending: the views of the last 7 days', () => {
  it('search orders by the week, not by all views; a view of 9 days ago counts in views only, one of 7 days ago in the week too', async () => {
    await viewsOn(decks.cold.share_slug, 9, 2000);
    await viewsOn(decks.late.share_slug, 7, 1000);
    await served(decks.warm.share_slug, 100);
    await served(decks.hot.share_slug, 300);
    // Exact at rest (contract §12.1: the board of trending), once the windows have passed: the week's order and counts.
    const items = await settled(trending, (got) => JSON.stringify(got.map((i) => i.views_7d)) === '[1000,300,100,0]');
    expect(order(items), JSON.stringify(items)).toEqual(['late', 'hot', 'warm', 'cold']);
    expect(items.map((i) => i.views_7d)).toEqual([1000, 300, 100, 0]);
    const byViews = await settled(
      async () => (await call('GET', '/api/v1/decks?sort=views&limit=10')).body.data as { id: string; views: number }[],
      (got) => JSON.stringify(got.map((i) => i.views)) === '[2000,1000,300,100]',
    );
    expect(order(byViews)).toEqual(['cold', 'late', 'hot', 'warm']);
    // The shared read: the stored week and views, its own view added (this read is one more of today).
    const coldRead = await call('GET', `/api/v1/decks/${decks.cold.share_slug}`);
    expect([coldRead.body.data.views, coldRead.body.data.views_7d]).toEqual([2001, 1]);
    const lateRead = await call('GET', `/api/v1/decks/${decks.late.share_slug}`);
    expect([lateRead.body.data.views, lateRead.body.data.views_7d]).toEqual([1001, 1001]);
  }, 60_000);

  it('a view shows in the shared read’s views_7d once counted; the week counts today', async () => {
    const before = (await call('GET', `/api/v1/decks/${decks.warm.share_slug}`)).body.data.views_7d as number;
    // That read was a view too: the next shows it and itself.
    const after = await settled(
      async () => (await call('GET', `/api/v1/decks/${decks.warm.share_slug}`)).body.data.views_7d as number,
      (n) => n >= before + 2,
    );
    expect(after).toBeGreaterThanOrEqual(before + 2);
  });

  it('a day leaves the week when the day 8 after it opens: the week falls with no view, and search follows', async () => {
    // The first test's read of the late deck (today's) counted first: its week is then 1,001.
    expect(
      await settled(
        () => storedViews(decks.late.share_slug),
        (n) => n === 1001,
      ),
    ).toBe(1001);
    // Tomorrow opened, as the schedule opens it at midnight: on the count of each deck with a week in search (its
    // folded week: the late deck's 1,000, folded at once — the others' views are short of a fold), and on the
    // trending boards: 7 days ago leaves the week.
    const tomorrow = new Date((dayOf(Date.now()) + 1) * DAY_MS);
    const opened = await asRoute(DAY_OPENER, () => openViewDay(scheduledEvent(tomorrow, DAY_OPENER.name)));
    expect(opened).toEqual({ day: dayOf(Date.now()) + 1, opened: 1 });
    // A retry (Lambda's, or the schedule run twice) writes nothing.
    expect(await asRoute(DAY_OPENER, () => openViewDay(scheduledEvent(tomorrow, DAY_OPENER.name)))).toEqual({
      day: dayOf(Date.now()) + 1,
      opened: 0,
    });
    // The late deck keeps only today's view (the shared read of the first test): 1; the cold one's (its read) too.
    const items = await settled(
      trending,
      (got) => order(got).join() === 'hot,warm,cold,late' || order(got).join() === 'hot,warm,late,cold',
    );
    expect(order(items).slice(0, 2)).toEqual(['hot', 'warm']);
    expect(items.find((i) => i.id === decks.late.id)?.views_7d).toBe(1);
    expect(items.find((i) => i.id === decks.cold.id)?.views_7d).toBe(1);
    // Ties by id: the two decks of 1.
    const [a, b] = [decks.late.id, decks.cold.id].sort();
    expect(items.slice(2).map((i) => i.id)).toEqual([a, b]);
    // Views are all-time: the late deck keeps them.
    expect(items.find((i) => i.id === decks.late.id)?.views).toBeGreaterThanOrEqual(1000);
    const lateRead = await call('GET', `/api/v1/decks/${decks.late.share_slug}`);
    expect(lateRead.body.data.views_7d).toBe(2);
  }, 30_000);
});
