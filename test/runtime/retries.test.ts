/**
 * What DynamoDB says to retry is retried (contract §9.1), on a store of this file's own behind the fault
 * proxy: a transaction conflict, throttling, a 5xx or a reset, injected once or without end, per
 * operation. Each route answers success (once) or 503 (without end) — never a 500 — and applies its
 * write exactly once: the store holds one new deck, one like, one more version, never two. A fold the
 * store refuses lands later; a create whose answer was lost says it may have been made, and makes one
 * deck whatever the retries.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewsFoldWithinBound } from '#rules/folds.ts';
import { documentClient } from '#store/client.ts';
import { getDeck } from '#store/decks.ts';
import { getCounts } from '#store/folds.ts';
import { VIEW_COUNT } from '#store/items/view-count.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { storedViews } from '#store/view-counts.ts';
import { call, code, createDeck, newOwner, type Owner } from '../support/api.ts';
import { CONFLICT, type Fault, THROTTLING } from '../support/fault-proxy.ts';
import { type Isolated, isolatedRuntime, quiet } from '../support/isolated.ts';
import { settled } from '../support/settle.ts';

let store: Isolated;
let owner: Owner;
let fan: Owner;

beforeAll(async () => {
  store = await isolatedRuntime({ ACCESS_LOG_DELIVERY_MS: '100', STREAM_BATCH_WINDOW_MS: '200' });
  owner = await newOwner();
  fan = await newOwner();
}, 120_000);
afterAll(() => store?.close());

/** The owner's decks in the store (those of one guide system, when given). */
const searchEntries = async (deckId: string) =>
  (
    await documentClient().send(
      new QueryCommand({
        TableName: tableName(DECKS),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `SEARCH#${deckId}` },
      }),
    )
  ).Items ?? [];

const decksOf = async (o: Owner, system?: string): Promise<number> => {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(DECKS),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `USER#${o.userId}` },
    }),
  );
  return Items.filter((i) => system === undefined || (i.guide as { system?: string } | undefined)?.system === system).length;
};
let made = 0;

/** A fresh public deck, and what each route does to it: its request and how to see that its write happened once. */
async function fixtures() {
  const deck = (await createDeck(owner, { visibility: 'public', tags: ['retried'] })).body.data as { id: string; share_slug: string };
  const doomed = (await createDeck(owner, { deck_code: code('soviet', 'usa', 5) })).body.data as { id: string };
  const system = `Retried ${++made}`;
  return {
    create: {
      send: () => call('POST', owner.decks, { key: owner.key, body: { deck_code: code('soviet', 'usa', 2), guide: { system } } }),
      applied: () => decksOf(owner, system),
    },
    patch: {
      send: () => call('PATCH', `${owner.decks}/${deck.id}`, { key: owner.key, body: { sort_order: 7 } }),
      applied: async () => ((await getDeck(owner.userId, deck.id))?.version ?? 0) - 1,
    },
    delete: {
      send: () => call('DELETE', `${owner.decks}/${doomed.id}`, { key: owner.key, body: {} }),
      applied: async () => ((await getDeck(owner.userId, doomed.id)) ? 0 : 1),
    },
    like: {
      send: () => call('PUT', `/api/v1/users/${fan.userId}/likes/${deck.share_slug}`, { key: fan.key }),
      applied: async () => (await getCounts(deck.share_slug, true)).likes,
    },
    'shared read': { send: () => call('GET', `/api/v1/decks/${deck.share_slug}`), applied: async () => 0 },
    search: { send: () => call('GET', '/api/v1/decks?tag=retried'), applied: async () => 0 },
    'owner read': { send: () => call('GET', `${owner.decks}/${deck.id}`, { key: owner.key }), applied: async () => 0 },
  };
}
const WRITES = new Set(['create', 'patch', 'delete', 'like']);

const FAULTS: [string, string, Fault][] = [
  ['TransactionConflictException on item writes', 'UpdateItem', CONFLICT.item],
  ['a transaction cancelled for a conflict', 'TransactWriteItems', CONFLICT.transaction],
  ['ThrottlingException', '*', THROTTLING.throttling],
  ['ProvisionedThroughputExceededException', '*', THROTTLING.provisioned],
  ['InternalServerError (500)', '*', THROTTLING.internal],
  ['ServiceUnavailable (503)', '*', CONFLICT.unavailable],
  ['a reset connection', '*', { kind: 'reset' }],
];

describe('retryable store answers: success or 503, never 500, each write applied once', () => {
  it.each(FAULTS)(
    '%s, once: every route succeeds, and each write is applied exactly once',
    async (_name, operation, fault) => {
      const routes = await fixtures();
      for (const [what, route] of Object.entries(routes)) {
        store.proxy.set(operation, { ...fault, times: 1 });
        const r = await route.send();
        store.proxy.clear();
        expect([what, r.status], r.text).toEqual([what, what === 'create' ? 201 : 200]);
        if (WRITES.has(what)) expect([what, await route.applied()]).toEqual([what, 1]);
      }
    },
    60_000,
  );

  it.each(FAULTS)(
    '%s, without end: 503 with Retry-After in the envelope, never 500, nothing applied',
    async (_name, operation, fault) => {
      const routes = await fixtures();
      store.proxy.set(operation, fault);
      const answers = await Promise.all(Object.entries(routes).map(async ([what, route]) => [what, await route.send()] as const));
      store.proxy.clear();
      for (const [what, r] of answers) {
        // Reads of a route that the fault's operation does not serve still succeed.
        expect(r.status === 503 || r.status < 300, `${what}: ${r.status} ${r.text}`).toBe(true);
        if (r.status === 503) {
          expect([what, r.body.error.code, r.headers.get('retry-after')]).toEqual([what, 'service_unavailable', '1']);
          expect(JSON.stringify(r.body)).not.toMatch(/Exception|ECONN|stack|injected/);
        }
        if (WRITES.has(what)) expect([what, await routes[what as keyof typeof routes].applied()]).toEqual([what, r.status < 300 ? 1 : 0]);
      }
    },
    60_000,
  );
});

describe('background work the store refuses is retried until it lands', () => {
  it('a like fold refused 30 times over (more than one batch retries) lands: the deck and every entry show the like', async () => {
    const deck = (await createDeck(owner, { visibility: 'public', tags: ['refused'] })).body.data as { id: string; share_slug: string };
    await quiet(store.proxy);
    // The worker's fold writes are refused; the like's own transaction is not an UpdateItem.
    store.proxy.set('UpdateItem', { ...CONFLICT.item, match: deck.id, times: 30 });
    expect((await call('PUT', `/api/v1/users/${fan.userId}/likes/${deck.share_slug}`, { key: fan.key })).status).toBe(200);
    const folded = await settled(
      async () => (await getDeck(owner.userId, deck.id))?.likes,
      (likes) => likes === 1,
      30_000,
    );
    expect(store.proxy.seen.get('error')).toBeGreaterThanOrEqual(30);
    expect(folded).toBe(1);
    await quiet(store.proxy);
    const Items = await searchEntries(deck.id);
    expect(Items.length).toBeGreaterThan(10);
    expect(Items.filter((e) => e.likes !== 1)).toEqual([]);
  }, 60_000);

  it('views whose count writes the store refuses stay in the view log and land on a retry: every view counted, once, and folded', async () => {
    const deck = (await createDeck(owner, { visibility: 'public', tags: ['refused-views'] })).body.data as {
      id: string;
      share_slug: string;
    };
    await quiet(store.proxy);
    // The count writes are throttled for a while (longer than one window's retries: 8 attempts).
    store.proxy.set('UpdateItem', { ...THROTTLING.throttling, match: VIEW_COUNT.prefix, times: 12 });
    for (let i = 0; i < 120; i += 20) await Promise.all(Array.from({ length: 20 }, () => call('GET', `/api/v1/decks/${deck.share_slug}`)));
    // Every view stored once; and folded within the documented bound. Where the fold ends depends on how
    // the views fell into windows (a fold at 91 is not moved by 120: 29 views are under a fold step), so
    // the bound is asserted, not a value; a deck never folded, or folded past its total, is outside it.
    const items = async () => 1 + (await searchEntries(deck.id)).length;
    const [stored, folded] = await settled(
      async () => [await storedViews(deck.share_slug), (await getDeck(owner.userId, deck.id))?.views ?? 0, await items()] as const,
      ([s, f, n]) => s === 120 && viewsFoldWithinBound(f, s, n),
      30_000,
    );
    expect(store.proxy.seen.get('error')).toBeGreaterThanOrEqual(12);
    expect(stored).toBe(120);
    expect(viewsFoldWithinBound(folded, stored, await items())).toBe(true);
  }, 60_000);
  it('a view batch recorded, or added to its counts, whose answers are lost is counted once', async () => {
    const deck = (await createDeck(owner, { visibility: 'public' })).body.data as { share_slug: string };
    await quiet(store.proxy);
    // The batch's transaction applied and its answer lost (retried with its client token), then two count
    // updates applied and their answers lost (retried: the count's ordinal says they are in).
    store.proxy.set('TransactWriteItems', { kind: 'dropAnswer', match: 'VIEWBATCH#', times: 1 });
    store.proxy.set('UpdateItem', { kind: 'dropAnswer', match: VIEW_COUNT.prefix, times: 2 });
    for (let i = 0; i < 30; i += 10) await Promise.all(Array.from({ length: 10 }, () => call('GET', `/api/v1/decks/${deck.share_slug}`)));
    await quiet(store.proxy);
    expect(store.proxy.seen.get('dropAnswer')).toBeGreaterThanOrEqual(3);
    expect(await storedViews(deck.share_slug)).toBe(30);
  }, 60_000);
});

describe('a create whose answer is lost', () => {
  it('is retried with its client token: applied once, answered 201; without end, 503 says the deck may have been made, and one deck was', async () => {
    const before = await decksOf(owner);
    const body = { deck_code: code('soviet', 'usa', 4), guide: { system: 'Lost answer' } };
    store.proxy.set('TransactWriteItems', { kind: 'dropAnswer', times: 1 });
    const once = await call('POST', owner.decks, { key: owner.key, body });
    expect(once.status, once.text).toBe(201);
    expect(await decksOf(owner)).toBe(before + 1);

    store.proxy.set('TransactWriteItems', { kind: 'dropAnswer' });
    const lost = await call('POST', owner.decks, { key: owner.key, body, headers: { 'idempotency-key': 'lost-answer-1' } });
    store.proxy.clear();
    expect([lost.status, lost.body.error.code]).toEqual([503, 'service_unavailable']);
    expect(lost.body.error.message).toMatch(/may have been created/);
    expect(lost.body.error.message).toMatch(/Idempotency-Key/);
    // The store applied it once, however many attempts were sent (one client token)...
    expect(await decksOf(owner)).toBe(before + 2);
    // ...and the client's repeat with its key answers that deck, creating nothing.
    const repeat = await call('POST', owner.decks, { key: owner.key, body, headers: { 'idempotency-key': 'lost-answer-1' } });
    expect([repeat.status, repeat.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(await decksOf(owner)).toBe(before + 2);
  }, 60_000);
});
