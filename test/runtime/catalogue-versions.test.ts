/**
 * The catalogue versions kept (contract §13.4: the card pool of a date is the version in force then), on a store of
 * the file's own under the grants of who writes and reads them: the daily refresh publishes each version with its
 * place in the history of versions in force (one transaction with the pointer); a function reads the version in force
 * at an instant — the last published by then, the first one before it, the pointer with no history (a store published
 * before versions were kept) — and its text, whole.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { PUBLIC_ROUTES } from '#routes/public.ts';
import { CATALOGUE_REFRESH } from '#routes/workers.ts';
import { publishCatalogue } from '#store/catalogue-publish.ts';
import { glance, readCatalogueAt, readCatalogueNow, readCatalogueText } from '#store/catalogue-read.ts';
import { documentClient } from '#store/client.ts';
import { withDeadline } from '#store/deadline.ts';
import { isStoreUnavailable } from '#store/faults.ts';
import { CATALOGUE, CATALOGUE_FROM, type CatalogueNow, catalogueNowKey } from '#store/items/catalogue.ts';
import { needed } from '#store/needed.ts';
import { RETRY } from '#store/retry.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { asRoute } from '../../infra/local/grants-guard.ts';
import { type Fault, startFaultProxy, THROTTLING } from '../support/fault-proxy.ts';
import { guardedStoreForFile } from '../support/store.ts';

guardedStoreForFile();
const publish = (text: string, previous: CatalogueNow | undefined, at: string) =>
  asRoute(CATALOGUE_REFRESH, () => publishCatalogue(text, { cards: 1, languages: ['en'] }, previous, new Date(at)));
/** A function that reads the catalogue (any route that declares it: its grant is the published catalogue's). */
const reader = Object.values(PUBLIC_ROUTES).find((r) => 'catalogue' in r && r.catalogue === true);
const at = (instant: string) => asRoute(reader as never, () => readCatalogueAt(new Date(instant), needed));
/** The versions the second test published, in order. */
const published: string[] = [];
const history = async () =>
  (
    await documentClient().send(
      new QueryCommand({
        TableName: tableName(DECKS),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :from)',
        ExpressionAttributeValues: { ':pk': CATALOGUE.pk(''), ':from': CATALOGUE_FROM },
      }),
    )
  ).Items ?? [];

describe('catalogue versions kept, chosen by date', () => {
  it('nothing published: none (the bundled catalogue is in force)', async () => {
    expect(reader).toBeDefined();
    expect(await at('2026-01-01T00:00:00Z')).toBeUndefined();
  });

  it('each version published is kept with its time; the one in force at an instant is the last by then, else the first', async () => {
    const first = await publish('{"cards":"first"}', undefined, '2026-03-01T12:00:00.000Z');
    const second = await publish('{"cards":"second"}', first, '2026-06-15T08:30:00.000Z');
    // A refresh that lost the race (over a version no longer in use) publishes nothing, and keeps nothing in the history.
    expect(await publish('{"cards":"late"}', first, '2026-06-16T00:00:00.000Z')).toBeUndefined();
    expect(first && second).toBeTruthy();
    published.push(first?.version as string, second?.version as string);
    expect((await history()).map((i) => i.version)).toEqual([first?.version, second?.version]);

    expect((await at('2026-03-01T11:59:59.999Z'))?.version).toBe(first?.version); // before the first: the first
    expect((await at('2026-03-01T12:00:00.000Z'))?.version).toBe(first?.version);
    expect((await at('2026-06-15T08:29:59.999Z'))?.version).toBe(first?.version);
    expect((await at('2026-06-15T08:30:00.000Z'))?.version).toBe(second?.version);
    expect((await at('2030-01-01T00:00:00.000Z'))?.version).toBe(second?.version);
    // An old version's text is still there, whole and checked.
    const old = await at('2026-04-01T00:00:00Z');
    expect(await asRoute(reader as never, () => readCatalogueText(old as never, needed))).toBe('{"cards":"first"}');
  });

  it('a store published before versions were kept: its version is in force at any date, and kept from when it was published once the next one is', async () => {
    for (const item of await history()) {
      await documentClient().send(new DeleteCommand({ TableName: tableName(DECKS), Key: { pk: item.pk, sk: item.sk } }));
    }
    expect(await history()).toEqual([]);
    expect((await at('2020-01-01T00:00:00Z'))?.version).toBe(published.at(-1));
    expect((await at('2040-01-01T00:00:00Z'))?.version).toBe(published.at(-1));
    // The next publication keeps the version in use too, from when it was published: a date between the two is its.
    const inUse = (await documentClient().send(new GetCommand({ TableName: tableName(DECKS), Key: catalogueNowKey }))).Item as CatalogueNow;
    const third = await publish('{"cards":"third"}', inUse, '2026-09-01T00:00:00.000Z');
    expect((await history()).map((i) => [i.version, i.published_at])).toEqual([
      [inUse.version, inUse.published_at],
      [third?.version, '2026-09-01T00:00:00.000Z'],
    ]);
    expect((await at('2026-08-31T23:59:59.999Z'))?.version).toBe(inUse.version);
    expect((await at('2026-09-01T00:00:00.000Z'))?.version).toBe(third?.version);
    // The pointer is the newest's, untouched by its predecessor's history item.
    const pointer = (await documentClient().send(new GetCommand({ TableName: tableName(DECKS), Key: catalogueNowKey }))).Item;
    expect(pointer?.version).toBe(third?.version);
  });
});

// The card pool's read timed out at 1 s beside the whole suite's load (CI, 2026-11-30: a README submission answered 503
// from a healthy store). A read the answer needs waits and retries as a request's store calls do; a glance does not.
describe('how a catalogue read waits on a slow or throttling store (through a fault proxy)', () => {
  /** `read`, as the reader's route, with the signed reads sent to `endpoint` instead of the file's store. */
  const readingAt = async <T>(endpoint: string, read: () => Promise<T>): Promise<T> => {
    const store = process.env.DYNAMODB_ENDPOINT;
    process.env.DYNAMODB_ENDPOINT = endpoint;
    try {
      return await asRoute(reader as never, read);
    } finally {
      process.env.DYNAMODB_ENDPOINT = store;
    }
  };
  const viaProxy = async (fault: Fault, read: () => Promise<unknown>) => {
    const proxy = await startFaultProxy(process.env.DYNAMODB_ENDPOINT as string);
    try {
      proxy.set('*', fault);
      const outcome = await readingAt(proxy.url, read).then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.name }),
      );
      return { outcome, calls: [...proxy.seen].filter(([k]) => k === 'Query' || k === 'GetItem').reduce((n, [, v]) => n + v, 0) };
    } finally {
      await proxy.close();
    }
  };
  const inForce = () => readCatalogueAt(new Date('2040-01-01T00:00:00Z'), needed).then((v) => v?.version);

  it('a read the answer needs: an answer 1.5 s late is waited for (one call), a throttled one is retried', async () => {
    const expected = await at('2040-01-01T00:00:00Z').then((v) => v?.version);
    expect(expected).toBeDefined();
    expect(await viaProxy({ kind: 'delayAnswer', ms: 1_500, times: 1 }, inForce)).toEqual({ outcome: { value: expected }, calls: 1 });
    expect(await viaProxy({ ...THROTTLING.throttling, times: 2 }, inForce)).toEqual({ outcome: { value: expected }, calls: 3 });
  });

  it("a gateway's HTML 502 is the store's failure, retried by a needed read; a request's time running out is an abort, not the store's", async () => {
    let hits = 0;
    const gateway = createServer((_req, res) => {
      hits++;
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
    });
    await new Promise<void>((done) => gateway.listen(0, '127.0.0.1', done));
    try {
      const gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
      const failed = await readingAt(gatewayUrl, () => readCatalogueNow(needed)).catch((e: unknown) => e);
      expect([isStoreUnavailable(failed), (failed as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode]).toEqual([
        true,
        502,
      ]);
      expect(hits).toBe(RETRY.maxAttempts);
    } finally {
      await new Promise((done) => gateway.close(done));
    }
    // A stalled store, and the request's guard aborting as lib/http/time-guard.ts does (with a TimeoutError of its own).
    const controller = new AbortController();
    const deadline = { signal: controller.signal, at: Date.now() + 400 };
    setTimeout(() => controller.abort(Object.assign(new Error('the request ran out of time'), { name: 'TimeoutError' })), 400);
    const cut = await viaProxy({ kind: 'stall' }, () => withDeadline(deadline, () => readCatalogueNow(needed)));
    expect(cut).toEqual({ outcome: { error: 'AbortError' }, calls: 1 });
  });

  it("a glance (the pointer's check: the catalogue at hand serves meanwhile): one attempt of 1 s, a throttle named as DynamoDB names it", async () => {
    const atAGlance = () => readCatalogueNow(glance);
    expect(await viaProxy({ kind: 'delayAnswer', ms: 1_500, times: 1 }, atAGlance)).toEqual({
      outcome: { error: 'TimeoutError' },
      calls: 1,
    });
    expect(await viaProxy({ ...THROTTLING.throttling, times: 1 }, atAGlance)).toEqual({
      outcome: { error: 'ThrottlingException' },
      calls: 1,
    });
  });
});
