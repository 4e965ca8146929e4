/**
 * A deleted deck leaves nothing behind (contract §9.1), whatever races its delete: 15 public decks, each
 * liked and read, deleted while more likes, unlikes, reads and PATCHes are sent at them — then a scan of
 * the whole store (this file's own, so nothing else is in it) finds nothing of any of them: no deck item,
 * search entry, counter, view count, like (under the deck or under the account that gave it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDeck, newOwner, type Owner } from '../support/api.ts';
import { type Isolated, isolatedRuntime } from '../support/isolated.ts';
import { settled } from '../support/settle.ts';
import { scanAll } from '../support/store.ts';

let store: Isolated;
beforeAll(async () => {
  // Views reach their counts within about 300 ms of a read: the reads racing a delete are counted (and must be taken out again) within the test.
  store = await isolatedRuntime({ ACCESS_LOG_DELIVERY_MS: '100', STREAM_BATCH_WINDOW_MS: '200' });
}, 120_000);
afterAll(() => store?.close());

/** Every item of the decks table, as text: its keys, its attribute names and values. */
const everything = async (): Promise<string[]> => (await scanAll()).map((i) => JSON.stringify(i));

describe('deletes take everything with them', () => {
  it('15 decks deleted while likes, unlikes, reads and PATCHes race them: a store scan finds nothing of them', async () => {
    const owner = await newOwner();
    const fans = await Promise.all(Array.from({ length: 4 }, () => newOwner()));
    const like = (fan: Owner, slug: string, method = 'PUT') => call(method, `/api/v1/users/${fan.userId}/likes/${slug}`, { key: fan.key });
    // Made one after another: what the test races is the delete, not the creates (fifteen at once once outran a
    // create's budget, 503, beside other files on 2 cores).
    const decks: { id: string; share_slug: string }[] = [];
    for (let i = 0; i < 15; i++) decks.push((await createDeck(owner, { visibility: 'public', tags: [`gone-${i}`] })).body.data);
    // Liked and read before the delete.
    for (const d of decks) {
      await Promise.all(fans.slice(0, 3).map((f) => like(f, d.share_slug)));
      await Promise.all(Array.from({ length: 5 }, () => call('GET', `/api/v1/decks/${d.share_slug}`)));
    }
    // The delete, and everything racing it: a deck at a time, its eleven requests at once. All fifteen decks at once
    // (165 requests), then five at a time (55), outran a request's time budget (503, "the deck store is busy") with
    // two other files' runtimes and stores beside it on 2 cores: the store runs one transaction at a time.
    const raced: Awaited<ReturnType<typeof call>>[][] = [];
    for (const d of decks)
      raced.push(
        await Promise.all([
          call('DELETE', `${owner.decks}/${d.id}`, { key: owner.key, body: {} }),
          like(fans[3] as Owner, d.share_slug),
          like(fans[0] as Owner, d.share_slug, 'DELETE'),
          call('PATCH', `${owner.decks}/${d.id}`, { key: owner.key, body: { tags: ['raced'] } }),
          ...Array.from({ length: 5 }, () => call('GET', `/api/v1/decks/${d.share_slug}`)),
        ]),
      );
    for (const replies of raced) {
      expect(replies[0]?.status, replies[0]?.text).toBe(200);
      for (const r of replies) expect([200, 404], r.text).toContain(r.status);
    }
    // Within a minute (the likes and any view count brought back are the worker's), nothing is left.
    const marks = decks.flatMap((d) => [d.id, d.share_slug]);
    const left = await settled(
      async () => (await everything()).filter((item) => marks.some((m) => item.includes(m))),
      (items) => items.length === 0,
      60_000,
    );
    expect(left).toEqual([]);
    // The fans' own likes of other decks are not touched: a deck that lives keeps its like.
    const kept = (await createDeck(owner, { visibility: 'public' })).body.data;
    expect((await like(fans[0] as Owner, kept.share_slug)).body.data.likes).toBe(1);
  }, 120_000);
});
