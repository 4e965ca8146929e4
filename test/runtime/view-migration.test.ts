/**
 * `deckctl views migrate` on a store written by the earlier layout (issue 43): 60 public decks whose views
 * are attributes of the 64 shared view buckets and whose views of the week are in the buckets' day maps, as
 * that version wrote them (items/view-bucket.ts says their shape), folded into the decks as it folded them.
 * The migration moves each deck's count into an item of its own — stopped half-way by a store failure and run
 * again, never counting a deck twice —, deletes the buckets, and a second run finds nothing to do; then
 * `deckctl views check` and `deckctl meta recount` find no drift, and a fold after it lands (its order newer
 * than the buckets' folds).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { dayOf, slotOf } from '#rules/week.ts';
import { documentClient } from '#store/client.ts';
import { createDeck, getDeck } from '#store/decks.ts';
import { foldDeck } from '#store/folds.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { bucketKeyAt, VIEW_BUCKETS } from '#store/items/view-bucket.ts';
import { legacyBucketOf } from '#store/items/view-log.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { readCount, storedCounts } from '#store/view-counts.ts';
import { deckctl } from '../support/deckctl.ts';
import { legalCode, storedDeck } from '../support/decks.ts';
import { THROTTLING } from '../support/fault-proxy.ts';
import { guardedStoreForFile } from '../support/store.ts';

const store = guardedStoreForFile();
const demo = demoCatalogue();
const TODAY = dayOf(Date.now());

describe('views migrate: the legacy buckets into a count a deck', () => {
  it('moves every count and its week once, resumes after a failure, deletes the buckets; then no drift', async () => {
    // 60 public decks, each with views (some of them of this week), folded as the earlier version folded them.
    const decks: StoredDeck[] = [];
    const views = new Map<string, { total: number; byDay: Map<number, number> }>();
    for (let i = 0; i < 60; i++) {
      const total = 3 + i * 7;
      const byDay = new Map(i % 3 === 0 ? [] : [[TODAY - (i % 8), Math.min(total, 1 + (i % 5))]]);
      const deck = storedDeck({
        deck_code: legalCode(demo, 'soviet', 'usa', 12, i % 20),
        views: total >= 25 ? total : 0,
        views_7d: 0,
        views_rev: 40,
      });
      expect(await createDeck(deck)).toBe('ok');
      decks.push(deck);
      views.set(deck.share_slug, { total, byDay });
    }
    // The buckets as the earlier version wrote them: v_<slug> a deck, w<slot> maps of a day's views, a revision.
    const buckets = new Map<number, Record<string, unknown>>();
    for (const [slug, { total, byDay }] of views) {
      const bucket = legacyBucketOf(slug);
      const item = buckets.get(bucket) ?? { ...bucketKeyAt(bucket), rev: 50, applied: 3 };
      item[`v_${slug}`] = total;
      for (const [day, n] of byDay) {
        const slot = `w${slotOf(day)}`;
        item[slot] = { ...((item[slot] as object) ?? { '@day': day }), [slug]: n };
      }
      buckets.set(bucket, item);
    }
    for (const Item of buckets.values()) await documentClient().send(new PutCommand({ TableName: tableName(DECKS), Item }));
    const env = { DYNAMODB_ENDPOINT: store.proxy.url };

    // A store failure half-way (a bucket's updates refused until the store is back): the run stops, saying so.
    // Refused for as long as the run lasts, not a number of times: a bucket of several decks updates them at
    // once, and a count of refusals could be spread over them within their retries (seen: the run succeeded).
    const stopped = [...buckets.keys()].sort((a, b) => a - b)[3] as number;
    store.proxy.set('UpdateItem', { ...THROTTLING.throttling, match: bucketKeyAt(stopped).pk });
    const failed = await deckctl(['views', 'migrate'], env);
    expect(failed.status).not.toBe(0);
    store.proxy.clear();
    // Run again, twice at once: they go on, and no deck is counted twice. The first to read the stopped bucket gets it
    // 2 s late, so the other moves its decks and deletes it meanwhile: the late one finds them moved and the bucket
    // gone (issue 53: it ended with the SDK's raw "The conditional request failed").
    store.proxy.set('GetItem', { kind: 'delayAnswer', ms: 2_000, match: bucketKeyAt(stopped).pk, times: 1 });
    const runs = await Promise.all([deckctl(['views', 'migrate', '--json'], env), deckctl(['views', 'migrate', '--json'], env)]);
    expect(store.proxy.seen.get('delayAnswer')).toBe(1);
    store.proxy.clear();
    for (const run of runs) expect([run.status, run.stderr]).toEqual([0, '']);
    const tallies = runs.map((run) => JSON.parse(run.stdout) as { moved: number; already: number; buckets: number });
    expect(tallies.reduce((n, t) => n + t.moved + t.already, 0)).toBeGreaterThan(0);
    for (const [slug, { total, byDay }] of views) {
      const count = await readCount(slug);
      expect([slug, count.views]).toEqual([slug, total]);
      const week = [...byDay.values()].reduce((a, b) => a + b, 0);
      expect([slug, (await storedCounts(slug, TODAY)).views_7d]).toEqual([slug, week]);
      // Its order is past the buckets': a fold from it is newer than any the buckets made.
      expect(count.rev).toBeGreaterThan(50);
    }
    for (let bucket = 0; bucket < VIEW_BUCKETS; bucket++) {
      const { Item } = await documentClient().send(
        new GetCommand({ TableName: tableName(DECKS), Key: bucketKeyAt(bucket), ConsistentRead: true }),
      );
      expect([bucket, Item]).toEqual([bucket, undefined]);
    }
    // Again: nothing left to move.
    expect(JSON.parse((await deckctl(['views', 'migrate', '--json'], env)).stdout)).toMatchObject({ buckets: 0, moved: 0 });

    // The at-rest checks. The decks' folded weeks were 0 (the earlier version's folds): those with a week of
    // more than a fold step's bound are found and folded again by --repair; then nothing.
    const checked = await deckctl(['views', 'check', '--repair', '--json'], env);
    expect(checked.status, checked.stderr).toBe(0);
    const again = await deckctl(['views', 'check', '--json'], env);
    expect([again.status, JSON.parse(again.stdout)]).toEqual([0, { decks: 60, drift: [], waiting: 0 }]);
    // What the library plays: the decks were put straight into the store (no worker): a first recount counts
    // them, a second finds no drift.
    expect((await deckctl(['meta', 'recount', '--json'], env)).status).toBe(0);
    const meta = await deckctl(['meta', 'recount', '--json'], env);
    expect(JSON.parse(meta.stdout)).toEqual({ decks: 60, drift: [] });

    // A fold after the migration lands: its order (the count's revision) is newer than the deck's.
    const deck = decks[40] as StoredDeck;
    const count = await readCount(deck.share_slug);
    await foldDeck(deck, { field: 'views', value: count.views + 100, week: 7, rev: count.rev });
    expect((await getDeck(deck.user_id, deck.id))?.views).toBe(count.views + 100);
  }, 180_000);
});
