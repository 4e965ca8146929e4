/**
 * Trending (contract §10.3) on a runtime of its own (its day slots are moved here): search's `sort=trending`
 * follows the views of the last 7 days — whole UTC days plus today — and search items and the shared read
 * carry `views_7d`. Views reach the store as they do in AWS: served through HTTP (the access log, its
 * subscriber, the view-log worker), and, for days before today, log events of those days handed to the
 * countViews function as CloudWatch Logs hands them. A day leaves the week when the daily opener opens
 * the day 8 after it on each deck's count (invoked here as its schedule invokes it, with that day's time),
 * and the store-change worker folds the fall into search.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, dayOf } from '#rules/week.ts';
import { storedViews } from '#store/view-counts.ts';
import { DAY_OPENER, VIEW_SUBSCRIPTION } from '#workers';
import { countViews, encodeLogs, logsDelivery } from '#workers/count-views.ts';
import { openViewDay } from '#workers/open-day.ts';
import { asRoute } from '../../infra/local/grants-guard.ts';
import { scheduledEvent, untilNext } from '../../infra/local/schedule.ts';
import { call, code, newOwner, type Owner } from '../support/api.ts';
import { type OwnRuntime, ownRuntime } from '../support/runtime.ts';
import { settled } from '../support/settle.ts';

let runtime: OwnRuntime | undefined;
let owner: Owner;
/** The decks, by name: cold (views 9 days ago only), late (views 7 days ago), warm and hot (views today). */
const decks: Record<'cold' | 'late' | 'warm' | 'hot', { id: string; share_slug: string }> = {} as never;

/** Views of days before today, as the access log's subscription hands them to countViews: one log event a view. */
async function viewsOn(slug: string, daysAgo: number, n: number) {
  const at = Date.now() - daysAgo * DAY_MS;
  const logEvents = Array.from({ length: n }, (_, i) => ({
    id: `${slug}-${daysAgo}-${i}`,
    timestamp: at,
    message: JSON.stringify({ routeKey: 'GET /api/v1/decks/{share_slug}', path: `/api/v1/decks/${slug}`, status: '200' }),
  }));
  await asRoute(VIEW_SUBSCRIPTION, () =>
    countViews(encodeLogs(logsDelivery({ owner: 'test', logGroup: 'access', logStream: 'trending' }, VIEW_SUBSCRIPTION.name, logEvents))),
  );
}

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

const trending = async () => {
  const r = await call('GET', '/api/v1/decks?tag=trend&sort=trending&limit=10');
  expect(r.status, r.text).toBe(200);
  return r.body.data as { id: string; views: number; views_7d: number }[];
};
const order = (items: { id: string }[]) => items.map((i) => Object.entries(decks).find(([, d]) => d.id === i.id)?.[0]);

beforeAll(async () => {
  // Days are UTC days: a run that would cross midnight starts after it instead (the test takes seconds).
  const toMidnight = untilNext(DAY_OPENER.at, Date.now());
  if (toMidnight < 120_000) await new Promise((r) => setTimeout(r, toMidnight + 1_000));
  runtime = await ownRuntime('trending', { STREAM_BATCH_WINDOW_MS: '0', ACCESS_LOG_DELIVERY_MS: '300' });
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
  writeFileSync('/tmp/trend-runtime.log', runtime?.output() ?? '');
  return runtime?.close();
});

describe('trending: the views of the last 7 days', () => {
  it('search orders by the week, not by all views; a view of 9 days ago counts in views only, one of 7 days ago in the week too', async () => {
    await viewsOn(decks.cold.share_slug, 9, 400);
    await viewsOn(decks.late.share_slug, 7, 150);
    await served(decks.warm.share_slug, 100);
    await served(decks.hot.share_slug, 300);
    // Folded into search within the fold bound (counters.ts: a fold carries at least a fold step, about 50
    // views for these decks, so search shows a week a step behind at most): the week's order.
    const items = await settled(trending, (got) => order(got).join() === 'hot,late,warm,cold' && (got[0]?.views_7d ?? 0) > 150);
    expect(order(items), JSON.stringify(items)).toEqual(['hot', 'late', 'warm', 'cold']);
    const [hot, late, warm, cold] = items.map((i) => i.views_7d) as number[];
    expect(hot).toBeGreaterThan(150);
    expect(hot).toBeLessThanOrEqual(300);
    expect(late).toBe(150); // counted in one batch: folded at once
    expect(warm).toBeGreaterThanOrEqual(50);
    expect(warm).toBeLessThanOrEqual(100);
    expect(cold).toBe(0);
    const byViews = await settled(
      async () => (await call('GET', '/api/v1/decks?tag=trend&sort=views&limit=10')).body.data,
      (got) => order(got)[0] === 'cold',
    );
    expect(order(byViews)[0]).toBe('cold');
    // The shared read: the stored week and views, its own view added (this read is one more of today).
    const coldRead = await call('GET', `/api/v1/decks/${decks.cold.share_slug}`);
    expect([coldRead.body.data.views, coldRead.body.data.views_7d]).toEqual([401, 1]);
    const lateRead = await call('GET', `/api/v1/decks/${decks.late.share_slug}`);
    expect([lateRead.body.data.views, lateRead.body.data.views_7d]).toEqual([151, 151]);
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
    // The first test's read of the late deck (today's) counted first: its week is then 151.
    expect(
      await settled(
        () => storedViews(decks.late.share_slug),
        (n) => n === 151,
      ),
    ).toBe(151);
    // Tomorrow opened, as the schedule opens it at midnight, on the count of each deck with a week in search
    // (hot, warm, late: not cold, whose week is 0): 7 days ago leaves the week.
    const tomorrow = new Date((dayOf(Date.now()) + 1) * DAY_MS);
    const opened = await asRoute(DAY_OPENER, () => openViewDay(scheduledEvent(tomorrow, DAY_OPENER.name)));
    expect(opened).toEqual({ day: dayOf(Date.now()) + 1, opened: 3 });
    // A retry (Lambda's, or the schedule run twice) writes nothing.
    expect(await asRoute(DAY_OPENER, () => openViewDay(scheduledEvent(tomorrow, DAY_OPENER.name)))).toEqual({
      day: dayOf(Date.now()) + 1,
      opened: 0,
    });
    // The late deck keeps only today's view (the shared read of the first test): 1.
    const items = await settled(trending, (got) => order(got).join() === 'hot,warm,late,cold');
    expect(order(items)).toEqual(['hot', 'warm', 'late', 'cold']);
    expect(items.find((i) => i.id === decks.late.id)?.views_7d).toBe(1);
    // Views are all-time: the late deck keeps them.
    expect(items.find((i) => i.id === decks.late.id)?.views).toBeGreaterThanOrEqual(150);
    const lateRead = await call('GET', `/api/v1/decks/${decks.late.share_slug}`);
    expect(lateRead.body.data.views_7d).toBe(2);
  }, 30_000);
});
