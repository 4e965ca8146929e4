/**
 * Views at the long tail and at the head (lib/public/view-counter.ts, lib/store/view-buckets.ts,
 * lib/changes/views.ts): 5,000 shared reads spread over 500 public decks the way deck sites see them
 * (Zipf: most decks read a few times, a few read hundreds of times), through the real handler module in
 * this process, on a store of this file's own whose every write — this process's and the store-change
 * worker's folds in its runtime — passes a counting proxy. Counted, not timed: no reader waits on a
 * write; the batch and its folds cost at most 0.1 items written per view; every view served is counted;
 * what a reader sees and what search sorts by stay within the documented bounds.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushViews } from '#public/view-counter.ts';
import { defaultArchive } from '#rules/deck-model.ts';
import { viewsFoldStep } from '#store/counters.ts';
import { createDeck, getDeck, type StoredDeck } from '#store/decks.ts';
import { facetsOf } from '#store/search.ts';
import { storedViews } from '#store/view-buckets.ts';
import { lambdaContext, matchRoute, toEvent } from '../../infra/local/gateway.ts';
import { code } from '../support/api.ts';
import { type Isolated, isolatedRuntime, quiet } from '../support/isolated.ts';

const DECKS = 500;
const READS = 5_000;
const decks: StoredDeck[] = [];

function seed(i: number): StoredDeck {
  const now = new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString();
  const slug = `v${randomUUID().replaceAll('-', '').slice(0, 11)}`;
  return {
    id: randomUUID(),
    user_id: randomUUID(),
    share_slug: slug,
    author_name: 'Viewed',
    name: 'Soviet Union / United States',
    main_faction: 'soviet',
    ally_faction: 'usa',
    deck_code: code(),
    tags: ['viewed'],
    visibility: 'public',
    sort_order: 0,
    guide: { system: 'Tempo', description: '', core_cards: [], reserve_recommendations: [] },
    archive: defaultArchive(),
    display: { featured_card_id: null, card_back_id: null },
    views: 0,
    likes: 0,
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

/** Reads per deck: Zipf with exponent 1 over the ranks, READS in all (the head hundreds, the tail 1–5). */
function zipf(): number[] {
  const weights = Array.from({ length: DECKS }, (_, r) => 1 / (r + 1));
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.max(1, Math.round((w / sum) * READS)));
  return counts;
}

type Handler = typeof import('../../functions/read-shared-deck.ts').handler;
/** Imported once the store is this file's: a function's module makes its store client at init. */
let handler: Handler;

const read = async (slug: string) => {
  const url = `/api/v1/decks/${slug}`;
  const { route, params } = matchRoute('GET', url);
  const r = await handler(toEvent({ method: 'GET', url, headers: {}, body: Buffer.alloc(0) }, route, params), lambdaContext(route));
  return { status: r.statusCode, views: JSON.parse(r.body as string).data?.views as number };
};

let store: Isolated;
const written = () => [...store.proxy.written.values()].reduce((a, b) => a + b, 0);

beforeAll(async () => {
  // One window for the whole workload: the timer never fires during it; the flush is called at the end.
  process.env.VIEW_FLUSH_MS = String(10 * 60_000);
  process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
  store = await isolatedRuntime({}, { throughProxy: true });
  ({ handler } = await import('../../functions/read-shared-deck.ts'));
  for (let i = 0; i < DECKS; i++) decks.push(seed(i));
  for (let i = 0; i < decks.length; i += 20) await Promise.all(decks.slice(i, i + 20).map((d) => createDeck(d)));
}, 120_000);
afterAll(async () => {
  delete process.env.VIEW_FLUSH_MS;
  await store?.close();
});

describe('views over a Zipf workload', () => {
  const perDeck = zipf();
  const served = perDeck.reduce((a, b) => a + b, 0);

  it('no reader waits on a write; one batch writes at most 0.1 items per view, folds included; every view is counted', async () => {
    const order = decks.flatMap((d, i) => Array<string>(perDeck[i] as number).fill(d.share_slug));
    await quiet(store.proxy);
    const before = written();
    const statuses: number[] = [];
    for (let i = 0; i < order.length; i += 25) {
      const replies = await Promise.all(order.slice(i, i + 25).map(read));
      statuses.push(...replies.map((r) => r.status ?? 0));
    }
    const duringReads = written() - before;
    // A call that failed (a loaded machine) keeps its views for the next window: write until none is left.
    for (let left = await flushViews(), i = 0; left > 0 && i < 5; i++) left = await flushViews();
    // The worker folds what the batch moved: until it has nothing left to write.
    await quiet(store.proxy);
    const batch = written() - before - duringReads;
    const folds = (await Promise.all(decks.map((d) => getDeck(d.user_id, d.id)))).filter((d) => (d?.views ?? 0) > 0).length;
    console.log(
      `${served} views of ${DECKS} decks (most read ${perDeck[0]} times, ${perDeck.filter((n) => n <= 5).length} decks 5 times or fewer): ` +
        `${duringReads} items written while reading, ${batch} by the batch (${folds} decks folded): ${(batch / served).toFixed(3)} items per view`,
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(duringReads).toBe(0);
    expect(batch).toBeGreaterThan(0);
    expect(batch / served).toBeLessThanOrEqual(0.1);

    // Every view served is in the stored totals.
    const totals = await Promise.all(decks.map((d) => storedViews(d.share_slug)));
    expect(totals).toEqual(perDeck);
  }, 120_000);

  it('search sorts by folded views: within max(25, 25%, 3 per item a fold rewrites) of the total; a reader sees the stored total plus its own', async () => {
    // A fold rewrites the deck item and each search entry.
    const foldedItems = (deck: StoredDeck) => 1 + facetsOf(deck).length;
    for (const [i, d] of decks.entries()) {
      const total = perDeck[i] as number;
      const stored = (await getDeck(d.user_id, d.id)) as StoredDeck;
      const folded = stored.views;
      expect(folded, d.share_slug).toBeLessThanOrEqual(total);
      // Folded once, from 0: every deck whose total reached its first step carries it exactly.
      expect(total - folded, d.share_slug).toBeLessThan(viewsFoldStep(folded, foldedItems(stored)));
      if (total >= viewsFoldStep(0, foldedItems(stored))) expect(folded, d.share_slug).toBe(total);
    }
    // The search index holds the folded counts: the most viewed decks lead sort=views, in order.
    const { handler: search } = await import('../../functions/search-decks.ts');
    const url = '/api/v1/decks?tag=viewed&sort=views&limit=5';
    const { route, params } = matchRoute('GET', '/api/v1/decks');
    const page = JSON.parse(
      (await search(toEvent({ method: 'GET', url, headers: {}, body: Buffer.alloc(0) }, route, params), lambdaContext(route)))
        .body as string,
    );
    expect(page.data.map((d: { share_slug: string; views: number }) => [d.share_slug, d.views])).toEqual(
      decks.slice(0, 5).map((d, i) => [d.share_slug, perDeck[i]]),
    );

    const head = decks[0] as StoredDeck;
    const first = await read(head.share_slug);
    const second = await read(head.share_slug);
    expect([first.views, second.views]).toEqual([(perDeck[0] as number) + 1, (perDeck[0] as number) + 2]);
    await flushViews();
    expect(await storedViews(head.share_slug)).toBe((perDeck[0] as number) + 2);
  });
});
