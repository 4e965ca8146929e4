/**
 * Search never drifts from its deck (contract §9.1): likes and view folds racing PATCHes that change a
 * public deck's facets, on a store of this file's own behind the fault proxy. The interleavings are
 * driven by the proxy's per-operation delays, not by luck: a PATCH's transaction held back while a fold
 * lands (the fold between the PATCH's read and its write), and the slug index's answer held back while
 * a PATCH adds a tag (a fold working from a deck read before the PATCH) — each at several offsets, so
 * that the PATCH lands before, inside and after each step of the fold. At rest, every search entry of
 * every deck holds its deck's likes and views, under exactly the deck's facets.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '#store/client.ts';
import { getDeck } from '#store/decks.ts';
import { facetsOf, sortKeys } from '#store/items/search-entry.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { call, createDeck, newOwner, type Owner } from '../support/api.ts';
import { type Isolated, isolatedRuntime, quiet } from '../support/isolated.ts';

let store: Isolated;
let owner: Owner;
let fans: Owner[];

beforeAll(async () => {
  // Views reach the store from the access log every 100 ms, and their counts 300 ms after a window's
  // first batch (a trial's reads fall in one window).
  store = await isolatedRuntime({ ACCESS_LOG_DELIVERY_MS: '100', STREAM_BATCH_WINDOW_MS: '300' });
  owner = await newOwner();
  fans = await Promise.all(Array.from({ length: 3 }, () => newOwner()));
}, 120_000);
afterAll(() => store?.close());

/** What disagrees between a deck item and its search entries: counts, sort keys, facets. */
async function drift(userId: string, deckId: string): Promise<string[]> {
  const deck = await getDeck(userId, deckId);
  if (!deck) return ['deck gone'];
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(DECKS),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `SEARCH#${deckId}` },
    }),
  );
  const keys = sortKeys(deck);
  const problems = Items.flatMap((e) =>
    [
      e.likes !== deck.likes && `${e.sk}: likes ${e.likes}, deck ${deck.likes}`,
      e.views !== deck.views && `${e.sk}: views ${e.views}, deck ${deck.views}`,
      e.by_likes !== keys.by_likes && `${e.sk}: by_likes ${e.by_likes}`,
      e.by_views !== keys.by_views && `${e.sk}: by_views ${e.by_views}`,
    ].filter((p): p is string => typeof p === 'string'),
  );
  const facets = facetsOf(deck).sort();
  const entries = Items.map((e) => e.sk as string).sort();
  if (JSON.stringify(facets) !== JSON.stringify(entries)) problems.push(`facets ${facets.length}, entries ${entries.length}`);
  return problems;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const publicDeck = async () =>
  (await createDeck(owner, { visibility: 'public', tags: ['t1'] })).body.data as { id: string; share_slug: string };
const patchTags = (id: string, round: number) =>
  call('PATCH', `${owner.decks}/${id}`, { key: owner.key, body: { tags: ['t1', `t2-${round}`] } });
const like = (fan: Owner, slug: string) => call('PUT', `/api/v1/users/${fan.userId}/likes/${slug}`, { key: fan.key });
/** Enough reads of a deck that their views are due a fold (a public deck of ~15 items folds from 45). */
const read = async (slug: string, n = 60) => {
  for (let i = 0; i < n; i += 20)
    await Promise.all(Array.from({ length: Math.min(20, n - i) }, () => call('GET', `/api/v1/decks/${slug}`)));
};

const OFFSETS = [0, 60, 150, 260, 380];
const trials: { name: string; problems: string[] }[] = [];

/** Runs `race` at each offset on a new deck, lets the store come to rest, and records what drifted. */
async function atEachOffset(
  name: string,
  race: (deck: { id: string; share_slug: string }, offset: number, round: number) => Promise<void>,
) {
  for (const [round, offset] of OFFSETS.entries()) {
    // The store is at rest from the trial before; a new deck gives the worker nothing to do.
    const deck = await publicDeck();
    await race(deck, offset, round);
    store.proxy.clear();
    await quiet(store.proxy);
    trials.push({ name: `${name} @${offset} ms`, problems: await drift(owner.userId, deck.id) });
  }
}

describe('folds racing PATCHes leave no search entry behind its deck', () => {
  it('a like fold lands while a PATCH holds the deck it read (its transaction held back 400 ms)', async () => {
    await atEachOffset('like during PATCH', async (deck, offset, round) => {
      store.proxy.set('TransactWriteItems', { kind: 'delay', ms: 400, match: 'SEARCH#', times: 1 });
      const patch = patchTags(deck.id, round);
      await sleep(offset / 4);
      const liked = await Promise.all(fans.map((f) => like(f, deck.share_slug)));
      expect(liked.map((r) => r.status)).toEqual([200, 200, 200]);
      expect((await patch).status).toBe(200);
    });
  }, 120_000);

  it('a PATCH adds a tag while a like fold works from the deck it read before (the slug index answers 300 ms late)', async () => {
    await atEachOffset('PATCH during like fold', async (deck, offset, round) => {
      // The like's own read of the deck, then the worker's: both answered late, the deck read before the PATCH.
      store.proxy.set('Query', { kind: 'delayAnswer', ms: 300, match: 'by_share_slug', times: 2 });
      const liked = like(fans[0] as Owner, deck.share_slug);
      await sleep(offset);
      expect((await patchTags(deck.id, round)).status).toBe(200);
      expect((await liked).status).toBe(200);
    });
  }, 120_000);

  it('a view fold lands while a PATCH holds the deck it read (its transaction held back 800 ms)', async () => {
    await atEachOffset('view fold during PATCH', async (deck, offset, round) => {
      store.proxy.set('TransactWriteItems', { kind: 'delay', ms: 800, match: 'SEARCH#', times: 1 });
      const patch = patchTags(deck.id, round);
      await sleep(offset / 4);
      await read(deck.share_slug);
      expect((await patch).status).toBe(200);
    });
  }, 120_000);

  it('a PATCH adds a tag while a view fold works from the deck it read before', async () => {
    await atEachOffset('PATCH during view fold', async (deck, offset, round) => {
      await read(deck.share_slug);
      // Before the window ends: the next read of the slug index is the worker's, for the fold the reads'
      // views are due, answered late.
      store.proxy.set('Query', { kind: 'delayAnswer', ms: 300, match: 'by_share_slug', times: 1 });
      await sleep(offset);
      expect((await patchTags(deck.id, round)).status).toBe(200);
    });
  }, 120_000);

  it('at rest, every entry of every deck holds its deck’s counts under its facets', () => {
    const drifted = trials.filter((t) => t.problems.length > 0);
    console.log(`${trials.length} trials, ${drifted.length} left search entries behind their deck`);
    expect(trials.length).toBe(4 * OFFSETS.length);
    expect(drifted).toEqual([]);
  });
});
