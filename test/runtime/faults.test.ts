/**
 * Store faults (contract §8.1), injected by a real proxy between a runtime of this file's own and its own
 * tables in the run's DynamoDB Local: stalled, slow (past the budget), reset, and DynamoDB's throttling
 * and server errors. An owner read, a public shared read, a search, a create, a PATCH, the share page,
 * the deck image, the history routes (owner and public pages, a version, a restore), the export, the key
 * list, a key create and revoke, and an erasure (of an account of its own) each answer 503
 * service_unavailable with Retry-After, in the envelope, within 10 s of being sent; nothing of the
 * owner's is written meanwhile (the store's items compared before and after); once the fault clears,
 * the same requests succeed.
 */
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '#auth/accounts.ts';
import { documentClient } from '#store/client.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { code, newOwner, type Owner } from '../support/api.ts';
import { type FaultProxy, THROTTLING } from '../support/fault-proxy.ts';
import { type Isolated, isolatedRuntime } from '../support/isolated.ts';
import type { Runtime } from '../support/runtime.ts';

const BOUND_MS = 10_000;
let store: Isolated;
let proxy: FaultProxy;
let runtime: Runtime;
let owner: Owner;
let deck: { id: string; share_slug: string };
/** A deck of two versions, restored to its first by each case. */
let restorable: { id: string };
/** A key of each case's own, for its revocation; an account of each case's own, for its erasure. */
let revocable: string;
let leaving: Owner;

async function send(method: string, path: string, body?: unknown, key = owner.key) {
  const started = performance.now();
  const res = await fetch(`${runtime.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  // A page or an image is not JSON; every error is.
  const json = res.headers.get('content-type')?.startsWith('application/json');
  return { status: res.status, headers: res.headers, body: json ? JSON.parse(text) : {}, ms: Math.round(performance.now() - started) };
}

const requests = () => ({
  'owner read': () => send('GET', `${owner.decks}/${deck.id}`),
  'shared read': () => send('GET', `/api/v1/decks/${deck.share_slug}`),
  search: () => send('GET', '/api/v1/decks?limit=5'),
  create: () =>
    send('POST', owner.decks, { deck_code: code('soviet', 'usa', 3), guide: { system: 'Made under fault' }, visibility: 'public' }),
  patch: () => send('PATCH', `${owner.decks}/${deck.id}`, { tags: ['under-fault'] }),
  'share page': () => send('GET', `/d/${deck.share_slug}`),
  'deck image': () => send('GET', `/api/v1/decks/${deck.share_slug}/image.png`),
  export: () => send('GET', `/api/v1/users/${owner.userId}/export`),
  history: () => send('GET', `${owner.decks}/${deck.id}/versions`),
  'public history': () => send('GET', `/api/v1/decks/${deck.share_slug}/versions`),
  'version read': () => send('GET', `${owner.decks}/${deck.id}/versions/1`),
  restore: () => send('POST', `${owner.decks}/${restorable.id}/versions/1/restore`, {}),
  'key list': () => send('GET', `/api/v1/users/${owner.userId}/keys`),
  'key create': () => send('POST', `/api/v1/users/${owner.userId}/keys`, { scopes: ['decks:read'] }),
  'key revoke': () => send('DELETE', `/api/v1/users/${owner.userId}/keys/${revocable}`, {}),
  erasure: () => send('DELETE', `/api/v1/users/${leaving.userId}`, { confirm: leaving.userId }, leaving.key),
});

/** Every item of the decks table that is this owner's: decks, search entries, counters. */
async function ownersItems(): Promise<string[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new ScanCommand({ TableName: tableName(DECKS), ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items
    .filter((i) => i.pk === `USER#${owner.userId}` || i.author_name === owner.displayName || i.pk === `COUNT#${deck.share_slug}`)
    .map((i) => JSON.stringify(i, Object.keys(i).sort()))
    .sort();
}

beforeAll(async () => {
  store = await isolatedRuntime();
  ({ proxy, runtime } = store);
  owner = await newOwner(undefined, `Fault Tester ${randomUUID().slice(0, 8)}`);
  const made = await send('POST', owner.decks, { deck_code: code(), guide: { system: 'Before faults' }, visibility: 'public' });
  expect(made.status).toBe(201);
  deck = made.body.data;
  restorable = (await send('POST', owner.decks, { deck_code: code(), guide: { system: 'Restored under fault' } })).body.data;
  expect((await send('PATCH', `${owner.decks}/${restorable.id}`, { sort_order: 7 })).status).toBe(200);
}, 120_000);

afterAll(() => store?.close());

const times: string[] = [];
afterAll(() => console.log(`time to 503 per fault (ms), each request sent side by side:\n${times.join('\n')}`));

describe('store faults answer 503 with Retry-After within 10 s, and write nothing', () => {
  it.each([
    ['stalled', { kind: 'stall' }],
    ['slow (12 s, past the budget)', { kind: 'delay', ms: 12_000 }],
    ['reset', { kind: 'reset' }],
    ['cut off mid-answer', { kind: 'cut' }],
    ['ProvisionedThroughputExceeded', THROTTLING.provisioned],
    ['ThrottlingException', THROTTLING.throttling],
    ['RequestLimitExceeded', THROTTLING.requestLimit],
    ['InternalServerError (500)', THROTTLING.internal],
  ] as const)(
    '%s',
    async (name, fault) => {
      // Keys are checked through the proxy too: auth is inside the bound.
      leaving = await newOwner();
      revocable = (await issueKey(owner.userId, ['decks:read'])).key.key_id;
      const before = await ownersItems();
      proxy.set('*', fault);
      const calls = requests();
      const answers = await Promise.all(Object.entries(calls).map(async ([what, run]) => [what, await run()] as const));
      proxy.clear();
      for (const [what, r] of answers) {
        expect([what, r.status, r.body.error?.code]).toEqual([what, 503, 'service_unavailable']);
        expect(r.headers.get('retry-after'), what).toBe('1');
        expect(r.body.meta.request_id, what).toBe(r.headers.get('x-request-id'));
        expect(JSON.stringify(r.body), what).not.toMatch(/Exception|ECONN|stack|injected/);
        expect(r.ms, what).toBeLessThan(BOUND_MS);
      }
      times.push(`${name.padEnd(30)} ${answers.map(([what, r]) => `${what} ${r.ms}`).join(', ')}`);
      // Nothing half-written, nothing written at all: the create made no deck or entry, the PATCH changed nothing.
      await new Promise((r) => setTimeout(r, 300));
      expect(await ownersItems()).toEqual(before);

      // The fault cleared: the same requests succeed.
      const again = requests();
      const ok = await Promise.all(Object.entries(again).map(async ([what, run]) => [what, (await run()).status] as const));
      expect(ok).toEqual([
        ['owner read', 200],
        ['shared read', 200],
        ['search', 200],
        ['create', 201],
        ['patch', 200],
        ['share page', 200],
        ['deck image', 200],
        ['export', 200],
        ['history', 200],
        ['public history', 200],
        ['version read', 200],
        ['restore', 200],
        ['key list', 200],
        ['key create', 201],
        ['key revoke', 200],
        ['erasure', 200],
      ]);
    },
    60_000,
  );

  it('a fault on one operation touches only the routes that use it', async () => {
    proxy.set('TransactWriteItems', THROTTLING.throttling);
    try {
      const calls = requests();
      const [read, search, create] = await Promise.all([calls['owner read'](), calls.search(), calls.create()]);
      expect([read.status, search.status, create.status]).toEqual([200, 200, 503]);
      expect(proxy.seen.get('error')).toBeGreaterThan(0);
      // The 503 is counted as a store fault (embedded metric format on stdout), with the service's dimension only.
      await new Promise((r) => setTimeout(r, 200));
      const faults = runtime
        .output()
        .split('\n')
        .filter((l) => l.includes('"StoreFaults"'))
        .map((l) => JSON.parse(l) as { StoreFaults: number; _aws: { CloudWatchMetrics: { Dimensions: string[][] }[] } });
      expect(faults.some((f) => f.StoreFaults === 1 && JSON.stringify(f._aws.CloudWatchMetrics[0]?.Dimensions) === '[["service"]]')).toBe(
        true,
      );
    } finally {
      proxy.clear();
    }
  });
});
