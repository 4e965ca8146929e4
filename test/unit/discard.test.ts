/**
 * Work a stream worker cannot apply never holds its shard (issue 41 item 2): what fails for good (the
 * store refuses it as invalid, or the program fails on the data) is named in the discarded-changes queue
 * — here the local stand-in of SQS, through the SDK as in AWS — and the batch goes on; what fails for a
 * while (throttling, a conflict) is retried from its record; work with parts is tried part by part, and
 * only the part that fails is given up on; a queue that does not take it keeps the record for a retry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPermanent } from '#store/faults.ts';
import { batchHandler, type Work } from '#workers/batch.ts';
import type { Discarded } from '#workers/discard.ts';
import { type LocalQueue, queued, startLocalQueue } from '../../infra/local/queue.ts';

const dir = mkdtempSync(join(tmpdir(), 'deck-library-discard-'));
const file = join(dir, 'discarded-changes.jsonl');
let queue: LocalQueue;
beforeAll(async () => {
  queue = await startLocalQueue(file);
  process.env.SQS_ENDPOINT = queue.endpoint;
  process.env.DISCARDED_QUEUE_URL = queue.url;
});
afterAll(async () => {
  await queue.stop();
  delete process.env.SQS_ENDPOINT;
  delete process.env.DISCARDED_QUEUE_URL;
  rmSync(dir, { recursive: true, force: true });
});

const invalid = () =>
  Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException', $metadata: {} });
const cancelled = (code: string) =>
  Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: [{ Code: 'None' }, { Code: code }],
  });
const throttled = () => Object.assign(new Error('slow down'), { name: 'ThrottlingException', $metadata: {} });

const records = [1, 2, 3, 4].map((n) => ({ dynamodb: { SequenceNumber: String(n) } }) as DynamoDBRecord);
const work = (n: number, run: () => Promise<void>, parts?: () => Work[]): Work => ({ first: String(n), what: `item ${n}`, run, parts });

describe('what a worker gives up on, and what it retries', () => {
  it('failures for good: the store refusing a request or a transaction item as invalid, the program failing on its data', () => {
    expect(isPermanent(invalid())).toBe(true);
    expect(isPermanent(cancelled('ValidationError'))).toBe(true);
    expect(isPermanent(new TypeError("Cannot read properties of undefined (reading 'cards')"))).toBe(true);
    expect(isPermanent(Object.assign(new Error('unexpected "x" at offset 2'), { name: 'DeckCodeError' }))).toBe(true);
    for (const passing of [
      throttled(),
      cancelled('TransactionConflict'),
      cancelled('ConditionalCheckFailed'),
      new Error('kept conflicting'),
    ])
      expect(isPermanent(passing), passing.name).toBe(false);
  });

  it('a record that cannot be applied is named in the queue, and the rest of the batch is done; one that fails for a while is retried from its record', async () => {
    const done: number[] = [];
    const handle = batchHandler('test', () => [
      work(1, async () => void done.push(1)),
      work(2, () => Promise.reject(invalid())),
      work(3, async () => void done.push(3)),
      work(4, () => Promise.reject(throttled())),
    ]);
    expect(await handle({ Records: records })).toEqual({ batchItemFailures: [{ itemIdentifier: '4' }] });
    expect(done.sort()).toEqual([1, 3]);
    const discarded = queued(file) as Discarded[];
    expect(discarded.map((d) => [d.worker, d.record, d.item, d.error.name])).toEqual([['test', '2', 'item 2', 'ValidationException']]);
  });

  it('work with parts that fails for good is tried part by part: only the part that cannot be applied is given up on', async () => {
    const before = queued(file).length;
    const applied: string[] = [];
    const part = (n: number) =>
      work(n, async () => (n === 3 ? Promise.reject(cancelled('ValidationError')) : void applied.push(`part ${n}`)));
    const whole = work(
      1,
      () => Promise.reject(cancelled('ValidationError')),
      () => [1, 2, 3, 4].map(part),
    );
    expect(await batchHandler('test', () => [whole])({ Records: records })).toEqual({ batchItemFailures: [] });
    expect(applied).toEqual(['part 1', 'part 2', 'part 4']);
    expect((queued(file) as Discarded[]).slice(before).map((d) => d.record)).toEqual(['3']);
  });

  it('a queue that does not take it keeps the record: the batch is retried from there', async () => {
    const url = process.env.DISCARDED_QUEUE_URL;
    process.env.DISCARDED_QUEUE_URL = '';
    try {
      expect(await batchHandler('test', () => [work(2, () => Promise.reject(invalid()))])({ Records: records })).toEqual({
        batchItemFailures: [{ itemIdentifier: '2' }],
      });
    } finally {
      process.env.DISCARDED_QUEUE_URL = url;
    }
  });
});
