/**
 * A record that always fails does not hold its shard past its worker's bound (contract §11.4, issue 42): the
 * local runtime's store-change worker on a store behind a fault proxy that throttles, every time, the figures'
 * transaction of one deck (its tag's item) — a failure that passes, as far as the worker can tell, so it is
 * retried, never given up on at once. Past the record age (shortened here: STREAM_MAX_RECORD_AGE_SECONDS, as
 * the mapping's MaximumRecordAgeInSeconds would) the batch is given up on, recorded in the discarded-changes
 * queue in the shape Lambda sends an on-failure destination, and the next change of the shard is applied. An idle
 * stream is read, not described again and again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '#auth/keys.ts';
import { tagKey } from '#store/items/plays.ts';
import { queued } from '../../infra/local/queue.ts';
import type { OnFailureMessage } from '../../infra/local/streams.ts';
import { call, code, newOwner } from '../support/api.ts';
import { type FaultProxy, startFaultProxy, THROTTLING } from '../support/fault-proxy.ts';
import { type Runtime, startRuntime } from '../support/runtime.ts';
import { settled } from '../support/settle.ts';
import { storeOfOwn } from '../support/store.ts';

const AGE_S = 8;
const dir = mkdtempSync(join(tmpdir(), 'deck-library-bounds-'));
let dynamo: Awaited<ReturnType<typeof storeOfOwn>> | undefined;
let proxy: FaultProxy | undefined;
let runtime: Runtime | undefined;

beforeAll(async () => {
  dynamo = await storeOfOwn();
  proxy = await startFaultProxy(dynamo.endpoint);
  runtime = await startRuntime(dir, {
    DYNAMODB_ENDPOINT: proxy.url,
    STREAM_BATCH_WINDOW_MS: '0',
    STREAM_MAX_RECORD_AGE_SECONDS: String(AGE_S),
  });
  process.env.API_BASE_URL = runtime.baseUrl;
}, 120_000);
afterAll(async () => {
  delete process.env.API_BASE_URL;
  await runtime?.stop();
  await proxy?.close();
  await dynamo?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const tagDecks = async (tag: string) =>
  ((await call('GET', '/api/v1/meta/factions')).body.data.tags as { tag: string; decks: number }[]).find((t) => t.tag === tag)?.decks ?? 0;

describe("a failing record and its shard's next change", () => {
  it('the worker retries it until its record age, records the batch given up on, and applies the next change', async () => {
    const owner = await newOwner(SCOPES);
    // Every transaction that writes the tag `held`'s figure is throttled: the worker can only retry it.
    proxy?.set('TransactWriteItems', { ...THROTTLING.throttling, match: tagKey('held').pk });
    const held = await call('POST', owner.decks, {
      key: owner.key,
      body: { deck_code: code('soviet', 'usa', 1), guide: { system: 'Held' }, tags: ['held'], visibility: 'public' },
    });
    expect(held.status, held.text).toBe(201);
    // Its batch is being retried: the next change of the shard comes behind it.
    await new Promise((r) => setTimeout(r, 1_000));
    const next = await call('POST', owner.decks, {
      key: owner.key,
      body: { deck_code: code('germany', 'italy', 2), guide: { system: 'Next' }, tags: ['next'], visibility: 'public' },
    });
    expect(next.status, next.text).toBe(201);
    const at = Date.now();
    expect(
      await settled(
        () => tagDecks('next'),
        (n) => n === 1,
        (AGE_S + 20) * 1000,
      ),
    ).toBe(1);
    // Held behind the failing record (the shard's order), and no longer than its record age (and a poll, a
    // retry's backoff and the next batch's work).
    const waited = Date.now() - at;
    expect(waited).toBeGreaterThan((AGE_S - 4) * 1000);
    expect(waited).toBeLessThan((AGE_S + 15) * 1000);
    expect(await tagDecks('held')).toBe(0);
    const given = (queued(join(dir, 'discarded-changes.jsonl')) as OnFailureMessage[]).filter((m) => m.DDBStreamBatchInfo);
    expect(given.length).toBeGreaterThan(0);
    expect(given[0]).toMatchObject({
      version: '1.0',
      requestContext: { condition: 'RecordAgeExceeded', functionArn: expect.stringContaining('storeChanges') },
      DDBStreamBatchInfo: { startSequenceNumber: expect.stringMatching(/^\d+$/), batchSize: expect.any(Number) },
    });
    expect(runtime?.output()).toMatch(/storeChanges: \d+ records of \S+ given up on \(record age\); recorded/);
    // Once the store takes it again, the at-rest check repairs what was dropped.
    proxy?.clear();
  }, 90_000);
});

describe('an idle stream', () => {
  it('is polled, not described again: with their shards open, its three pollers describe the stream at most once each in 3 s, and read it all the while', async () => {
    const seen = (op: string) => proxy?.seen.get(op) ?? 0;
    const [described, read] = [seen('DescribeStream'), seen('GetRecords')];
    await new Promise((r) => setTimeout(r, 3_000));
    // Described every second whatever was open, they made 6 in these 3 s (infra/local/streams.ts DESCRIBE_EVERY_MS).
    expect(seen('DescribeStream') - described).toBeLessThanOrEqual(3);
    expect(seen('GetRecords') - read).toBeGreaterThanOrEqual(3 * 4);
  });
});
