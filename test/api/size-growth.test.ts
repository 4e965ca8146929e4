/**
 * No item grows with the library (contract §11.1, issue 43): a store seeded with 1,000 decks' counts and
 * figures — each deck's view count (its total and the days of its week) and a tag of its own — then with
 * 20,000; at each size a shared read, a views window and a public create (its request and the store-change
 * worker's figures) run in this process, with the store asked for the capacity each call consumed (DynamoDB
 * Local bills whole items, as AWS does). No call costs more at 20,000 decks than at 1,000: the items they read
 * and write are the decks' own, whatever the library's size.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, issueKey } from '#auth/accounts.ts';
import { SCOPES } from '#auth/keys.ts';
import { demoCatalogue } from '#catalogue/load.ts';
import { dayOf, slotOf } from '#rules/week.ts';
import { documentClient } from '#store/client.ts';
import { tagItem } from '#store/items/plays.ts';
import { dayAttr, viewCountKey, viewsAttr } from '#store/items/view-count.ts';
import { applyPlays } from '#store/plays.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { logViewBatch } from '#store/view-log.ts';
import { viewLogMoved } from '#workers/view-log.ts';
import type { LocalDynamo } from '../../infra/local/dynamodb.ts';
import { legalCode } from '../support/decks.ts';
import { recordDynamo } from '../support/dynamo-recorder.ts';
import { functionFor } from '../support/in-function.ts';
import { storeOfOwn } from '../support/store.ts';

const demo = demoCatalogue();
const TODAY = dayOf(Date.now());
let dynamo: LocalDynamo;
let owner: { userId: string; key: string };

/** Counts and tags of decks `from`–`to` (slugs of their own), put straight into the store. */
async function seed(from: number, to: number) {
  const items: Record<string, unknown>[] = [];
  for (let i = from; i < to; i++) {
    const slug = `g${String(i).padStart(11, '0')}`;
    const days = [TODAY, TODAY - 1, TODAY - 3].slice(0, 1 + (i % 3));
    items.push({
      ...viewCountKey(slug),
      views: 10 + (i % 500),
      rev: 1 + (i % 7),
      applied: 0,
      ...Object.fromEntries(
        days.flatMap((d) => [
          [dayAttr(slotOf(d)), d],
          [viewsAttr(slotOf(d)), 1 + (i % 9)],
        ]),
      ),
    });
    items.push(tagItem(`seeded-tag-${i}`, 1 + (i % 4)));
  }
  for (let b = 0; b < items.length; b += 25) {
    let pending = items.slice(b, b + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending.length) {
      const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName(DECKS)]: pending } }));
      pending = (out.UnprocessedItems?.[tableName(DECKS)] ?? []) as typeof pending;
    }
  }
}

/** A request run in this process by its route's handler, and the capacity each of its store calls consumed. */
async function request(method: string, path: string, body?: unknown, key?: string) {
  const fn = await functionFor(method, path);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
  const recorder = recordDynamo({ capacity: true });
  const r = await fn.invoke(headers, Buffer.from(body === undefined ? '' : JSON.stringify(body)));
  recorder.stop();
  return { status: r.statusCode, body: JSON.parse(r.body as string), units: recorder.calls.map((c) => c.units ?? 0) };
}

/** What a step consumed, call by call. */
async function measuredUnits(run: () => Promise<unknown>): Promise<number[]> {
  const recorder = recordDynamo({ capacity: true });
  await run();
  recorder.stop();
  return recorder.calls.map((c) => c.units ?? 0);
}

/** At one size: a shared read, a views window of 40 decks' views, a public create of 2 tags and its figures. */
async function costs(round: number) {
  const created = await request(
    'POST',
    `/api/v1/users/${owner.userId}/decks`,
    {
      deck_code: legalCode(demo, 'soviet', 'usa', 12, round),
      guide: { system: 'Size' },
      tags: ['seeded-tag-7', `size-${round}`],
      visibility: 'public',
    },
    owner.key,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const deck = created.body.data as { id: string; share_slug: string };
  const figures = await measuredUnits(() => applyPlays([{ userId: owner.userId, deckId: deck.id }]));
  const read = await request('GET', `/api/v1/decks/${deck.share_slug}`);
  expect(read.status).toBe(200);
  // A window: views of the new deck and of 39 seeded ones, recorded as a batch and moved into their counts.
  const views = new Map(
    [deck.share_slug, ...Array.from({ length: 39 }, (_, i) => `g${String(i * 13).padStart(11, '0')}`)].map((s) => [
      s,
      new Map([[TODAY, 3]]),
    ]),
  );
  const batch = `size-${round}`;
  await logViewBatch(batch, views);
  const window = await measuredUnits(async () => {
    const batches = [{ id: batch, ordinal: 1 + round, views: Object.fromEntries([...views].map(([s, d]) => [s, Object.fromEntries(d)])) }];
    await viewLogMoved(0, batches, TODAY);
  });
  return { create: created.units, figures, read: read.units, window };
}

const at: Record<number, Awaited<ReturnType<typeof costs>>> = {};
beforeAll(async () => {
  dynamo = await storeOfOwn();
  const account = await createAccount('Size');
  owner = { userId: account.user_id, key: (await issueKey(account.user_id, [...SCOPES])).apiKey };
  await seed(0, 1_000);
  at[1_000] = await costs(1);
  await seed(1_000, 20_000);
  at[20_000] = await costs(2);
}, 300_000);
afterAll(() => dynamo?.stop());

describe('no item grows with the library', () => {
  it.each(['read', 'window', 'create', 'figures'] as const)('%s: no call costs more at 20,000 decks than at 1,000', (step) => {
    const [small, large] = [at[1_000]?.[step] ?? [], at[20_000]?.[step] ?? []];
    console.log(`${step}: capacity units a call at 1,000 decks ${JSON.stringify(small)}, at 20,000 ${JSON.stringify(large)}`);
    expect(small.length).toBeGreaterThan(0);
    expect(Math.max(...large)).toBeLessThanOrEqual(Math.max(...small));
    expect(large.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(small.reduce((a, b) => a + b, 0));
  });

  it('a shared read costs at most half a read unit beside its deck: its count is an item of its own', () => {
    // The slug index's item of the deck, and the deck's count (eventually consistent, ≤ 4 KB: 0.5 each).
    expect(at[20_000]?.read).toEqual([0.5, 0.5]);
  });
});
