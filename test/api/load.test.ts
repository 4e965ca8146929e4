/**
 * A healthy store never answers 503 (contract §9.1): 100 requests at once against the run's local runtime
 * — one process serving them all, on a healthy DynamoDB Local — likes, creates, PATCHes and reads mixed,
 * three times over: not one 503, not one 5xx, and every write stored once.
 */
import { describe, expect, it } from 'vitest';
import { getCounts } from '#store/counters.ts';
import { call, code, createDeck, newOwner, type Owner, type Reply } from '../support/api.ts';

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
});
