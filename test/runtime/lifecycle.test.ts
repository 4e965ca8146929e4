/**
 * The functions as Lambda runs them (contract §9.5; infra/local/lambda/): execution environments that
 * serve one invocation at a time, frozen between invocations (their timers do not run), thawed by the
 * next, shut down after an idle while — with SIGTERM only when an extension is registered. Then the
 * service's own bundles (what `cdk deploy` ships) under that lifecycle, behind the local gateway, with
 * their store behind a fault proxy: every view counted exactly once — across shut-downs, with a slow
 * store, and over a long-tail workload of 10,000 views at most 0.1 items written per view.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getItems } from '#store/bulk.ts';
import { createDeck as storeDeck } from '#store/decks.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { VIEW_COUNT, viewCountKey } from '#store/items/view-count.ts';
import { applyPlays } from '#store/plays.ts';
import { storedViews } from '#store/view-counts.ts';
import { startDynamoLocal } from '../../infra/local/dynamodb.ts';
import type { Environment, FunctionConfig } from '../../infra/local/lambda/environment.ts';
import { FunctionPool } from '../../infra/local/lambda/pool.ts';
import { call, code, createDeck, newOwner } from '../support/api.ts';
import { storedDeck } from '../support/decks.ts';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts';
import { runWalkthrough } from '../support/readme.ts';
import { expectWalkthrough } from '../support/readme-expect.ts';
import { freePort, type Runtime, startRuntime } from '../support/runtime.ts';
import { settled } from '../support/settle.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// One synthesis (the bundles as deployed) and one store for the file: each runtime below in turn. The first
// runtime to start makes the synthesis itself, in `npm start`, as a person's LAMBDA_LIFECYCLE=1 start does (an
// empty LAMBDA_ASSETS is synthesised into); the others reuse it.
const assets = mkdtempSync(join(tmpdir(), 'deck-library-lambda-'));
let dynamo: Awaited<ReturnType<typeof startDynamoLocal>>;
beforeAll(async () => {
  dynamo = await startDynamoLocal(await freePort());
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
}, 180_000);
afterAll(async () => {
  await dynamo?.stop();
  rmSync(assets, { recursive: true, force: true });
});

/**
 * A runtime in lifecycle mode on the file's synthesis (made by the first), its store behind a fault proxy of its own —
 * a server that closes a connection idle for 5 s, as Node's does (DynamoDB Local's Jetty after about 30 s); this
 * process's API calls go to it.
 */
async function lifecycleRuntime(
  env: Record<string, string>,
  options: { npm?: boolean } = {},
): Promise<{ proxy: FaultProxy; runtime: Runtime; close(): Promise<void> }> {
  const proxy = await startFaultProxy(dynamo.endpoint);
  const runtime = await startRuntime(
    '/nonexistent-data-dir',
    {
      LAMBDA_LIFECYCLE: '1',
      LAMBDA_ASSETS: assets,
      DYNAMODB_ENDPOINT: proxy.url,
      STREAM_POLL_MS: '100',
      POWERTOOLS_LOG_LEVEL: 'WARN',
      ...env,
    },
    { ...options, startMs: 240_000 },
  );
  process.env.API_BASE_URL = runtime.baseUrl;
  return {
    proxy,
    runtime,
    close: async () => {
      delete process.env.API_BASE_URL;
      await runtime.stop();
      await proxy.close();
    },
  };
}

// Under Lambda's own runtime client (aws-lambda-ric, the default) and the project's bootstrap.mjs alike.
describe.each(['aws-lambda-ric', 'bootstrap'] as const)('execution environments (%s)', (runtimeClient) => {
  const root = mkdtempSync(join(tmpdir(), 'deck-library-fn-'));
  // A function that counts timer ticks (a frozen environment's timers do not run) and says when SIGTERM comes.
  writeFileSync(
    join(root, 'index.mjs'),
    `let ticks = 0; setInterval(() => { ticks++; }, 10);
     process.on('SIGTERM', () => { console.log('SIGTERM received'); process.exit(0); });
     export const handler = async (event, context) => { await new Promise((r) => setTimeout(r, event.holdMs ?? 0));
       return { ticks, pid: process.pid, requestId: context.awsRequestId, left: context.getRemainingTimeInMillis() }; };`,
  );
  writeFileSync(join(root, 'broken.mjs'), `throw new Error('no init today');`);
  const config = (over: Partial<FunctionConfig> = {}): FunctionConfig => ({
    name: 'ticker',
    taskRoot: root,
    handler: 'index.handler',
    memoryMb: 128,
    timeoutS: 5,
    environment: {},
    extensions: false,
    ...over,
  });
  const pools: FunctionPool[] = [];
  const pool = (over: Partial<FunctionConfig> = {}, idleMs = 60_000) => {
    const p = new FunctionPool(config(over), { idleMs, runtimeClient });
    pools.push(p);
    return p;
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.stop()));
    rmSync(root, { recursive: true, force: true });
  });
  type Ticks = { ticks: number; pid: number; requestId: string; left: number };
  /** Whether an environment is frozen within 2 s (once its runtime asks for the next event, just after it answered). */
  const frozen = (env: Environment | undefined) =>
    settled(
      async () => env?.frozen,
      (f) => f === true,
      2_000,
    );

  it('frozen between invocations: its timers do not run until the next invocation thaws it', async () => {
    const p = pool();
    const first = (await p.invoke({})).result as Ticks;
    const env = p.environments[0];
    // Frozen once its runtime asks for the next event (just after it answered).
    expect(await frozen(env)).toBe(true);
    const between = Date.now();
    await sleep(2_000);
    const second = await p.invoke({ holdMs: 0 });
    // A tick every 10 ms: had it run between the two answers, about 200 ticks. Frozen, only what it ran
    // between its answer and its freeze, and between its thaw and its second answer (milliseconds, more
    // on a loaded machine): at most a quarter of that time's ticks.
    const elapsed = Date.now() - between;
    expect((second.result as Ticks).ticks - first.ticks).toBeLessThan(elapsed / 10 / 4);
    expect(second.cold).toBe(false);
    expect(second.environment).toBe(env);
    // Thawed while it works: its timers run during an invocation.
    const third = await p.invoke({ holdMs: 300 });
    expect((third.result as Ticks).ticks - (second.result as Ticks).ticks).toBeGreaterThan(10);
    expect((third.result as Ticks).left).toBeGreaterThan(4_000);
    expect((third.result as Ticks).left).toBeLessThanOrEqual(5_000);
  });

  it('one invocation per environment: concurrent invocations start environments of their own; a free one is reused', async () => {
    const p = pool();
    const answers = await Promise.all([0, 1, 2].map(() => p.invoke({ holdMs: 200 })));
    expect(new Set(answers.map((a) => (a.result as Ticks).pid)).size).toBe(3);
    expect(answers.every((a) => a.cold)).toBe(true);
    expect(p.started.every((e) => e.initMs !== undefined)).toBe(true);
    const again = await p.invoke({});
    expect(again.cold).toBe(false);
    expect(p.started).toHaveLength(3);
    expect(new Set(answers.map((a) => (a.result as Ticks).requestId)).size).toBe(3);
  });

  it('shut down after its idle time: without an extension with SIGKILL alone (no SIGTERM)', async () => {
    const p = pool({}, 400);
    await p.invoke({});
    const env = p.started[0];
    await settled(
      async () => env?.state,
      (s) => s === 'gone',
      5_000,
    );
    expect(env?.state).toBe('gone');
    expect(env?.ended).toBe('SIGKILL');
    expect(env?.logs.some((l) => l.includes('SIGTERM received'))).toBe(false);
    expect(p.environments).toHaveLength(0);
    // The next invocation is a cold start again.
    expect((await p.invoke({})).cold).toBe(true);
  });

  it('with an extension registered: thawed, SIGTERM, and the runtime may end within its budget', async () => {
    const p = pool({ extensions: true });
    await p.invoke({});
    const env = p.started[0];
    expect(await frozen(env)).toBe(true);
    await p.shutdown(env as NonNullable<typeof env>);
    // The function's SIGTERM handler runs within the budget (aws-lambda-ric writes console lines as Lambda
    // does: time, request id, level, text).
    expect(env?.logs.some((l) => l === 'SIGTERM received' || l.endsWith('\tINFO\tSIGTERM received'))).toBe(true);
    // bootstrap.mjs then exits at once; under aws-lambda-ric 4.0.2 process.exit does not end the process
    // within the budget (seen every time: its native client holds a request for the next event open on a
    // thread of its own), and the environment is killed when the budget ends, as Lambda kills it.
    expect(env?.ended).toBe(runtimeClient === 'bootstrap' ? 'SIGTERM' : 'SIGTERM, then SIGKILL');
  });

  it('an init that fails is an error for the invocation, and the environment is gone', async () => {
    const p = pool({ handler: 'broken.handler' });
    const answer = await p.invoke({});
    expect(answer.error?.errorType).toBe('Runtime.InitError');
    expect(answer.error?.errorMessage).toContain('no init today');
    expect(p.environments).toHaveLength(0);
  });
});

// `LAMBDA_LIFECYCLE=1 npm start` as a person runs it: it builds the bundles itself (the file's first runtime), and
// its store closes idle connections while the synthesis runs — which once left the runtime's store client a dead
// connection, and it ended "could not start: socket hang up" (issue 53).
describe("`LAMBDA_LIFECYCLE=1 npm start`, and the README's walkthrough on it", () => {
  let runtime: Runtime;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // Tables of its own: the runtime makes them and prints a demo account, as `npm start` does on a first start.
    ({ runtime, close } = await lifecycleRuntime({ DECKS_TABLE: 'readme-decks', ACCOUNTS_TABLE: 'readme-accounts' }, { npm: true }));
  }, 300_000);
  afterAll(() => close?.());

  it('answers as the README says, each route in its own environments of the deployed bundle', async () => {
    expect(runtime.demo).toBeDefined();
    expectWalkthrough(await runWalkthrough(runtime.baseUrl, runtime.demo as { userId: string; apiKey: string }));
    // Served by the bundles' environments, not in the runtime's process.
    for (const name of ['createDeck', 'updateDeck', 'searchDecks', 'readSharedDeck', 'likeDeck', 'deleteDeck']) {
      expect([name, new RegExp(`\\[${name}\\] environment \\d+ started`).test(runtime.output())]).toEqual([name, true]);
    }
    // The daily opener of the views' week ran at start, as its schedule would, in its bundle's environment: without a failure.
    expect(runtime.output()).toMatch(/\[openViewDay\] environment \d+ started/);
    expect(runtime.output()).not.toMatch(/openViewDay failed/);
  }, 120_000);
});

describe('the bundles as deployed, under the lifecycle', () => {
  let proxy: FaultProxy;
  let runtime: Runtime;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ proxy, runtime, close } = await lifecycleRuntime({
      LAMBDA_IDLE_MS: '1500',
      ACCESS_LOG_DELIVERY_MS: '500',
      STREAM_BATCH_WINDOW_MS: '2000',
    }));
  }, 180_000);
  afterAll(() => close?.());

  const views = async (slug: string) => (await call('GET', `/api/v1/decks/${slug}`)).body.data.views as number;

  it('sparse reads, each environment shut down before the next read: every view counted, shown within 60 s', async () => {
    const owner = await newOwner();
    const deck = (await createDeck(owner, { visibility: 'public' })).body.data as { share_slug: string };
    const shutdowns = () => (runtime.output().match(/\[readSharedDeck\] environment \d+ shut down \(SIGKILL\)/g) ?? []).length;
    for (let i = 1; i <= 4; i++) {
      const before = shutdowns();
      // The reader sees the stored total and its own view (the earlier reads' once stored).
      const seen = await views(deck.share_slug);
      expect(seen).toBeGreaterThanOrEqual(1);
      expect(seen).toBeLessThanOrEqual(i);
      await settled(
        async () => shutdowns(),
        (n) => n > before,
        10_000,
      );
      expect(shutdowns()).toBeGreaterThan(before);
    }
    const lastRead = Date.now();
    const stored = await settled(
      () => storedViews(deck.share_slug),
      (n) => n === 4,
      60_000,
    );
    expect(stored).toBe(4);
    expect(Date.now() - lastRead).toBeLessThan(60_000);
    // And no more later: nothing is counted twice.
    await sleep(3_000);
    expect(await storedViews(deck.share_slug)).toBe(4);
  }, 120_000);

  it('what the library plays follows the deployed store-change worker across freezes and shutdowns: counted once, taken out once', async () => {
    const owner = await newOwner();
    const tagged = async () =>
      ((await call('GET', '/api/v1/meta/factions')).body.data.tags as { tag: string; decks: number }[]).find((t) => t.tag === 'lifemeta')
        ?.decks ?? 0;
    const made = [];
    for (const visibility of ['public', 'public', 'private'])
      made.push((await createDeck(owner, { visibility, tags: ['lifemeta'] })).body.data as { id: string });
    expect(await settled(tagged, (n) => n === 2, 60_000)).toBe(2);
    const r = await call('PATCH', `${owner.decks}/${made[0]?.id}`, { key: owner.key, body: { visibility: 'private' } });
    expect(r.status).toBe(200);
    expect(await settled(tagged, (n) => n === 1, 60_000)).toBe(1);
    // The worker's environments shut down between its batches: nothing is counted again later.
    await sleep(3_000);
    expect(await tagged()).toBe(1);
    expect(runtime.output()).toMatch(/\[storeChanges\] environment \d+ shut down/);
  }, 150_000);

  it('a slow store: writes answered after their attempt timed out, retried across freezes, count nothing twice', async () => {
    const owner = await newOwner();
    const deck = (await createDeck(owner, { visibility: 'public' })).body.data as { share_slug: string };
    // The batch's transaction and the count updates applied, their answers 3 s late (an attempt times out at 2.5 s).
    proxy.set('TransactWriteItems', { kind: 'delayAnswer', ms: 3_000, match: 'VIEWBATCH#', times: 2 });
    proxy.set('UpdateItem', { kind: 'delayAnswer', ms: 3_000, match: VIEW_COUNT.prefix, times: 2 });
    for (let i = 0; i < 3; i++) {
      await views(deck.share_slug);
      await sleep(1_200);
    }
    const stored = await settled(
      () => storedViews(deck.share_slug),
      (n) => n >= 3,
      60_000,
    );
    await sleep(8_000);
    expect(proxy.seen.get('delayAnswer')).toBeGreaterThanOrEqual(2);
    expect(stored).toBe(3);
    expect(await storedViews(deck.share_slug)).toBe(3);
  }, 120_000);
});

describe('views over a long tail, under the lifecycle (one window)', () => {
  const DECKS = 1_000;
  const VIEWS = 10_000;
  let proxy: FaultProxy;
  let runtime: Runtime;
  let close: () => Promise<void>;
  const decks: StoredDeck[] = [];
  const written = () => [...proxy.written.values()].reduce((a, b) => a + b, 0);

  beforeAll(async () => {
    // One view-log window for the whole workload, ended by a clean stop (the runtime hands over what its
    // streams hold): what the workload costs does not hang on how fast this machine reads. The access log
    // is delivered every 5 s, as locally by default. (A window's cost is a write a deck it saw and its
    // folds; over time, deliveries: docs/data-model.md gives the deployed 30 s window's figures.)
    ({ proxy, runtime, close } = await lifecycleRuntime({ STREAM_BATCH_WINDOW_MS: '3600000' }));
    for (let i = 0; i < DECKS; i++) decks.push(seed(i));
    for (let i = 0; i < decks.length; i += 25) await Promise.all(decks.slice(i, i + 25).map((d) => storeDeck(d)));
    // What the new public decks add to the figures of what the library plays, applied now (the worker's
    // work for their creation, which the hour-long window would otherwise hold to the stop): views change
    // nothing there, and the count below is of what views cost.
    await applyPlays(decks.map((d) => ({ userId: d.user_id, deckId: d.id })));
    // And each count marked with its public deck's factions (the store-change worker's work for their creation:
    // lib/store/boards.ts), done before the views are read: the count below is of what views cost.
    const marked = await settled(
      async () => (await getItems(decks.map((d) => viewCountKey(d.share_slug)))).filter((c) => c?.deck !== undefined).length,
      (n) => n === DECKS,
      120_000,
    );
    expect(marked).toBe(DECKS);
  }, 240_000);
  afterAll(() => close?.());

  it('10,000 Zipf views over 1,000 decks in one window: nothing written by a reader, at most 1 write unit per view (contract §11.1), folds included; every view counted', async () => {
    const perDeck = zipf(DECKS, VIEWS);
    const served = perDeck.reduce((a, b) => a + b, 0);
    // Read in a shuffled order, 16 at a time.
    const order = decks.flatMap((d, i) => Array<string>(perDeck[i] as number).fill(d.share_slug));
    for (let i = order.length - 1; i > 0; i--) {
      const j = (i * 7919) % (i + 1);
      [order[i], order[j]] = [order[j] as string, order[i] as string];
    }
    await sleep(2_000); // the seeding's folds (none: no views yet) and stream at rest
    const before = written();
    const unitsBefore = proxy.units.write;
    const byOperation = () => new Map(proxy.written);
    const atStart = byOperation();
    const started = Date.now();
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < order.length) {
          const slug = order[next++] as string;
          statuses.push((await fetch(`${runtime.baseUrl}/api/v1/decks/${slug}`)).status);
        }
      }),
    );
    const readFor = Date.now() - started;
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // While reading, the only writes were the access log's batches (countViews' transactions): no reader wrote.
    const whileReading = [...byOperation()].filter(([op, n]) => n > (atStart.get(op) ?? 0)).map(([op]) => op);
    expect(whileReading.filter((op) => op !== 'TransactWriteItems')).toEqual([]);
    // The clean stop: the access log delivered, the window handed over, its folds done.
    expect(await runtime.stop()).toBe(0);
    const totals = await Promise.all(decks.map((d) => storedViews(d.share_slug)));
    const items = written() - before;
    const units = proxy.units.write - unitsBefore;
    console.log(
      `${served} views of ${DECKS} decks (most read ${perDeck[0]} times) in ${(readFor / 1000).toFixed(1)} s under the lifecycle: ` +
        `${items} items written (batches, counts, folds): ${(items / served).toFixed(3)} items per view, ` +
        `${units.toFixed(1)} write units: ${(units / served).toFixed(3)} a view`,
    );
    expect(totals).toEqual(perDeck);
    expect(units).toBeGreaterThan(0);
    expect(units / served).toBeLessThanOrEqual(1);
  }, 450_000);
});

/** Views per deck: Zipf with exponent 1 over the ranks, about `total` in all, at least 1 each. */
function zipf(n: number, total: number): number[] {
  const weights = Array.from({ length: n }, (_, r) => 1 / (r + 1));
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => Math.max(1, Math.round((w / sum) * total)));
}

function seed(i: number): StoredDeck {
  const now = new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString();
  return storedDeck({
    share_slug: `v${randomUUID().replaceAll('-', '').slice(0, 11)}`,
    author_name: 'Viewed',
    deck_code: code(),
    tags: ['viewed'],
    created_at: now,
    updated_at: now,
  });
}
