/**
 * A healthy store never answers 503 (contract §9.1): 100 requests at once against a local runtime with the deployed
 * budget (the run's shared one gives a request more: test/support/runtime.ts UNTIMED) — one process serving them all,
 * on a healthy DynamoDB Local — likes, creates, PATCHes and reads mixed,
 * three times over: not one 503, not one 5xx, and every write stored once. And creates at once of decks as wide as
 * real ones, as many as the store gets through in 70% of a request's budget (up to 100), every one 201.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_BUDGET_MS } from '#http/time-guard.ts';
import type { Card } from '#rules/catalogue.ts';
import { encodeDeckCode } from '#rules/deck-code.ts';
import { COPY_LIMIT } from '#rules/deck-rules.ts';
import { getCounts } from '#store/folds.ts';
import { call, code, createDeck, deckable, newOwner, type Owner, type Reply } from '../support/api.ts';
import { DEPLOYED_BUDGET, type OwnRuntime, ownRuntime } from '../support/runtime.ts';

let runtime: OwnRuntime | undefined;
beforeAll(async () => {
  runtime = await ownRuntime('load', DEPLOYED_BUDGET);
});
afterAll(() => runtime?.close());

/**
 * A public deck as wide as most real ones: 25 distinct cards (the 24 real share codes of ../shared/reference hold 15–30,
 * 21 at the median) and 3 tags — 31 search entries, a transaction of 33 items. `offset` varies the cards.
 */
const realWide = (offset: number) => {
  const pick = (faction: 'soviet' | 'usa', twos: number, ones: number) => {
    const pool = deckable(faction).filter((c) => COPY_LIMIT[c.rarity] >= 2);
    return Array.from({ length: twos + ones }, (_, i) => ({
      card_id: (pool[(i + offset) % pool.length] as Card).card_id,
      count: i < twos ? 2 : 1,
    }));
  };
  return {
    deck_code: encodeDeckCode({ main: 'soviet', ally: 'usa', cards: [...pick('soviet', 9, 9), ...pick('usa', 5, 2)] }),
    visibility: 'public',
    tags: ['burst', `burst${offset % 7}`, `burst-${offset % 3}`],
    guide: { system: `Burst ${offset}` },
  };
};

describe('100 requests at once on a healthy store', () => {
  it('likes, creates, PATCHes, shared and owner reads and searches: no 503, no 5xx, each write once', async () => {
    const owners = await Promise.all(Array.from({ length: 10 }, () => newOwner()));
    const fans = await Promise.all(Array.from({ length: 3 }, () => newOwner()));
    const decks = await Promise.all(owners.map(async (o) => ({ owner: o, ...(await createDeck(o, { visibility: 'public' })).body.data })));
    for (let round = 0; round < 3; round++) {
      const requests: (() => Promise<Reply>)[] = [];
      // 30 likes (or unlikes: every round flips them), 20 creates, 20 PATCHes (two of each deck), 30 reads.
      for (const fan of fans)
        for (const d of decks)
          requests.push(() => call(round % 2 ? 'DELETE' : 'PUT', `/api/v1/users/${fan.userId}/likes/${d.share_slug}`, { key: fan.key }));
      for (const [i, o] of [...owners, ...owners].entries())
        requests.push(() =>
          call('POST', o.decks, { key: o.key, body: { deck_code: code('soviet', 'usa', i % 7), guide: { system: `Load ${round}` } } }),
        );
      for (const [i, d] of [...decks, ...decks].entries())
        requests.push(() => call('PATCH', `${d.owner.decks}/${d.id}`, { key: d.owner.key, body: { sort_order: round * 100 + i } }));
      for (const d of decks) {
        requests.push(() => call('GET', `/api/v1/decks/${d.share_slug}`));
        requests.push(() => call('GET', `${(d.owner as Owner).decks}/${d.id}`, { key: d.owner.key }));
        requests.push(() => call('GET', '/api/v1/decks?sort=likes&limit=10'));
      }
      expect(requests).toHaveLength(100);
      const replies = await Promise.all(requests.map((r) => r()));
      const failed = replies.filter((r) => r.status >= 500).map((r) => `${r.status} ${r.text.slice(0, 160)}`);
      expect(failed, `round ${round}`).toEqual([]);
      expect(replies.every((r) => r.status === 200 || r.status === 201)).toBe(true);
      // Each like stored once: every deck has all three fans' likes (even rounds) or none (odd).
      for (const d of decks) expect((await getCounts(d.share_slug, true)).likes).toBe(round % 2 ? 0 : 3);
      // Each create made one deck: two per owner per round.
      for (const o of owners) {
        const list = await call('GET', `${o.decks}?limit=100`, { key: o.key });
        expect(list.body.data.filter((x: { guide: { system: string } }) => x.guide.system === `Load ${round}`)).toHaveLength(2);
      }
    }
  }, 120_000);

  // Public creates at once, of decks as wide as real ones: such a burst of 100 answered 28 × 201 and 72 × 503 from a
  // healthy store — an attempt given up at 2.5 s and sent again doubled the work queued at the store. DynamoDB Local
  // runs one transaction at a time (DynamoDB runs them side by side), so how many such creates it gets through in a
  // request's budget is this machine's speed: 100 took 8.0 s on a quiet one and 8.75 s on a slower one, against a
  // budget of 8 s. The burst is sized from the store's pace, measured first (20 at once): as many as it does in 70% of
  // the budget, at most 100 — work doubled by retries would take 140% of it and answer 503s.
  it('creates at once of real-sized public decks, as many as the store does in 70% of a request budget: every one 201, no 503, each deck made once', async () => {
    const [paced, owner] = await Promise.all([newOwner(), newOwner()]);
    const burst = async (n: number, from: number, by = owner) => {
      const started = Date.now();
      const replies = await Promise.all(
        Array.from({ length: n }, (_, i) => call('POST', by.decks, { key: by.key, body: realWide(from + i) })),
      );
      return { replies, ms: Date.now() - started };
    };
    // Paced twice, the faster taken: the first burst on a store of its own also meets its paths' first runs (20 once
    // took 3.2 s, then 2.0 s on the same machine).
    const paces = [await burst(20, 1_000, paced), await burst(20, 2_000, paced)];
    for (const p of paces) expect(p.replies.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.text.slice(0, 160)}`)).toEqual([]);
    const pace = paces.reduce((a, b) => (b.ms < a.ms ? b : a));
    const size = Math.min(100, Math.floor((0.7 * REQUEST_BUDGET_MS) / (pace.ms / 20)));
    // Fewer than 40 would test too little: a machine that slow is said so, not passed.
    expect(size, `20 creates at once took ${pace.ms} ms`).toBeGreaterThanOrEqual(40);
    const { replies, ms } = await burst(size, 0);
    console.log(`${size} creates of 33-item transactions at once (20 took ${pace.ms} ms): all answered in ${ms} ms`);
    expect(replies.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.text.slice(0, 160)}`)).toEqual([]);
    const list = await call('GET', `${owner.decks}?limit=100`, { key: owner.key });
    expect(list.body.data).toHaveLength(size);
    expect(new Set(list.body.data.map((d: { guide: { system: string } }) => d.guide.system)).size).toBe(size);
  }, 120_000);
});
