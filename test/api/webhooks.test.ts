/**
 * Webhooks over HTTP (contract §13.5), on a runtime of the file's own (its stream workers make the deliveries, its queue's
 * consumer sends them) with a receiver on loopback, which `npm start` allows: a deck published → one delivery,
 * verified by the Standard Webhooks reference verifier (the `standardwebhooks` package) and a hand HMAC; a 500 → the
 * same webhook-id again after the schedule's first wait (5 s); 410 → the webhook disabled; replay; a private deck never
 * delivered; filters keep only matching decks; the log. A second runtime on the same store with a deployed stack's rule
 * (WEBHOOK_TARGETS=public) refuses loopback, private, link-local and http targets, and a name that resolves to loopback.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, code, createDeck, details, newOwner, type Owner } from '../support/api.ts';
import { type OwnRuntime, ownRuntime, type Runtime, startRuntime, UNTIMED } from '../support/runtime.ts';

interface Heard {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A receiver on loopback: what it heard by path, and what it answers (by path: a list of statuses, then 204). */
let receiver: Server;
let receiverUrl = '';
const heard: Heard[] = [];
const answers = new Map<string, number[]>();
let deployed: Runtime | undefined;
let own: OwnRuntime | undefined;
const dir = mkdtempSync(join(tmpdir(), 'deck-library-webhooks-'));

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      heard.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const status = answers.get(path)?.shift() ?? 204;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  // A runtime of the file's own (its deliveries, retries and their receivers touch no other file's store), and beside it
  // one on the same store with a deployed stack's rule.
  own = await ownRuntime('webhooks');
  deployed = await startRuntime(dir, {
    ...UNTIMED,
    DYNAMODB_ENDPOINT: own.dynamoEndpoint,
    STREAM_WORKERS: 'off',
    WEBHOOK_TARGETS: 'public',
  });
}, 180_000);
afterAll(async () => {
  await deployed?.stop();
  await own?.close();
  await new Promise<void>((ok) => receiver?.close(() => ok()));
  rmSync(dir, { recursive: true, force: true });
});

const hooks = (o: Owner) => `/api/v1/users/${o.userId}/webhooks`;
let paths = 0;
/** A webhook of the owner's on a path of the receiver of its own; its answer (the secret in it). */
async function register(o: Owner, body: Record<string, unknown> = {}) {
  const path = `/hook-${++paths}`;
  // A tag of its own unless the test filters: a webhook on the run's shared store takes no other file's decks.
  const filters = { tag: `unheard-${process.pid}-${paths}` };
  const r = await call('POST', hooks(o), {
    key: o.key,
    body: { url: `${receiverUrl}${path}`, events: ['deck.published'], filters, ...body },
  });
  expect(r.status, r.text).toBe(201);
  return { path, hook: r.body.data, secret: r.body.data.secret as string };
}
/** What the receiver heard on a path, once it has heard `n` (within 20 s). */
async function heardOn(path: string, n: number, withinMs = 20_000): Promise<Heard[]> {
  const until = Date.now() + withinMs;
  for (;;) {
    const got = heard.filter((h) => h.path === path);
    if (got.length >= n || Date.now() > until) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
}
/** A unique tag, so that a webhook filtered on it takes only this test's decks (others publish on the shared store). */
let tags = 0;
const tag = () => `hooked-${process.pid}-${++tags}`;

describe('webhooks over HTTP', () => {
  it('a deck published → one delivery, verified by the reference verifier and a hand HMAC; its log says delivered', async () => {
    const owner = await newOwner();
    const t = tag();
    const { path, hook, secret } = await register(owner, { filters: { tag: t } });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(hook).toMatchObject({ events: ['deck.published'], filters: { tag: t }, disabled: null, discord: false });
    const made = await createDeck(owner, { visibility: 'public', tags: [t] });
    const [delivery, ...more] = await heardOn(path, 1);
    expect(delivery, 'one delivery').toBeDefined();
    const d = delivery as Heard;
    // The reference verifier throws on a bad signature or a timestamp outside its 5 minutes.
    const payload = new Webhook(secret).verify(d.body, d.headers as Record<string, string>) as {
      type: string;
      data: { deck: Record<string, unknown> };
    };
    expect(payload.type).toBe('deck.published');
    expect(payload.data.deck).toMatchObject({
      share_slug: made.body.data.share_slug,
      name: made.body.data.name,
      deck_code: made.body.data.deck_code,
      tags: [t],
    });
    const id = String(d.headers['webhook-id']);
    const ts = String(d.headers['webhook-timestamp']);
    const hand = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
      .update(`${id}.${ts}.${d.body}`)
      .digest('base64');
    expect(String(d.headers['webhook-signature']).split(' ')).toContain(`v1,${hand}`);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
    expect(Buffer.byteLength(d.body)).toBeLessThan(20_000);
    // Nothing more comes for it (a change seen once is one delivery).
    await new Promise((r) => setTimeout(r, 1500));
    expect([...more, ...heard.filter((h) => h.path === path).slice(1)]).toEqual([]);
    const log = await call('GET', `${hooks(owner)}/${hook.webhook_id}/deliveries`, { key: owner.key });
    expect(log.status).toBe(200);
    expect(log.body.data).toEqual([
      expect.objectContaining({
        delivery_id: id,
        type: 'deck.published',
        status: 'delivered',
        next_try: null,
        attempts: [expect.objectContaining({ status: 204 })],
      }),
    ]);
  });

  it('a private deck is never delivered; filters keep only the decks they match; a deck made public later is', async () => {
    const owner = await newOwner();
    const t = tag();
    const germany = await register(owner, { filters: { tag: t, main_faction: 'germany' } });
    const any = await register(owner, { filters: { tag: t } });
    await createDeck(owner, { visibility: 'private', tags: [t] });
    const soviet = await createDeck(owner, { visibility: 'public', tags: [t], deck_code: code('soviet', 'usa') });
    const german = await createDeck(owner, { visibility: 'unlisted', tags: [t], deck_code: code('germany', 'italy') });
    const turned = await call('PATCH', `${owner.decks}/${german.body.data.id}`, { key: owner.key, body: { visibility: 'public' } });
    expect(turned.status, turned.text).toBe(200);
    const toAny = await heardOn(any.path, 2);
    const slugs = (list: Heard[]) => list.map((h) => JSON.parse(h.body).data.deck.share_slug).sort();
    expect(slugs(toAny)).toEqual([soviet.body.data.share_slug, german.body.data.share_slug].sort());
    const toGermany = await heardOn(germany.path, 1);
    expect(slugs(toGermany)).toEqual([german.body.data.share_slug]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(heard.filter((h) => h.path === any.path)).toHaveLength(2);
    expect(heard.filter((h) => h.path === germany.path)).toHaveLength(1);
  });

  it('a 500 → the same webhook-id delivered again after the first wait; 410 → the webhook disabled, and why', async () => {
    const owner = await newOwner();
    const t = tag();
    const flaky = await register(owner, { filters: { tag: t } });
    answers.set(flaky.path, [500]);
    await createDeck(owner, { visibility: 'public', tags: [t] });
    const [first, second] = await heardOn(flaky.path, 2, 30_000);
    expect(second, 'delivered again').toBeDefined();
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(second?.body).toBe(first?.body);
    // The schedule's first wait: 5 s, and up to a fifth more.
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(4_500);
    const log = await call('GET', `${hooks(owner)}/${flaky.hook.webhook_id}/deliveries`, { key: owner.key });
    expect(log.body.data[0]).toMatchObject({ status: 'delivered', attempts: [{ status: 500 }, { status: 204 }] });

    const t2 = tag();
    const gone = await register(owner, { filters: { tag: t2 } });
    answers.set(gone.path, [410]);
    await createDeck(owner, { visibility: 'public', tags: [t2] });
    await heardOn(gone.path, 1);
    let read: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 50; i++) {
      read = await call('GET', `${hooks(owner)}/${gone.hook.webhook_id}`, { key: owner.key });
      if (read.body.data.disabled) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(read?.body.data.disabled).toMatchObject({ reason: expect.stringContaining('410') });
    // Disabled: a deck published later reaches it no more, and a replay is refused until it is enabled again.
    await createDeck(owner, { visibility: 'public', tags: [t2] });
    const logged = await call('GET', `${hooks(owner)}/${gone.hook.webhook_id}/deliveries`, { key: owner.key });
    expect(logged.body.data).toHaveLength(1);
    expect(logged.body.data[0]).toMatchObject({ status: 'failed', attempts: [{ status: 410 }] });
    const refused = await call('POST', `${hooks(owner)}/${gone.hook.webhook_id}/deliveries/${logged.body.data[0].delivery_id}/replay`, {
      key: owner.key,
      body: {},
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('webhook_disabled');
    await new Promise((r) => setTimeout(r, 1000));
    expect(heard.filter((h) => h.path === gone.path)).toHaveLength(1);
  });

  it('replay sends the same body under the same webhook-id, signed afresh; a rotated secret signs beside the new one', async () => {
    const owner = await newOwner();
    const t = tag();
    const { path, hook, secret } = await register(owner, { filters: { tag: t } });
    await createDeck(owner, { visibility: 'public', tags: [t] });
    const [first] = await heardOn(path, 1);
    const id = String(first?.headers['webhook-id']);
    const rotated = await call('PATCH', `${hooks(owner)}/${hook.webhook_id}`, { key: owner.key, body: { rotate_secret: true } });
    expect(rotated.status, rotated.text).toBe(200);
    const fresh = rotated.body.data.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect(Date.parse(rotated.body.data.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const replay = await call('POST', `${hooks(owner)}/${hook.webhook_id}/deliveries/${id}/replay`, { key: owner.key, body: {} });
    expect(replay.status, replay.text).toBe(200);
    expect(replay.body.data).toMatchObject({ delivery_id: id, status: 'pending' });
    const [, again] = await heardOn(path, 2);
    expect(again?.headers['webhook-id']).toBe(id);
    expect(again?.body).toBe(first?.body);
    const headers = again?.headers as Record<string, string>;
    expect(String(headers['webhook-signature']).split(' ')).toHaveLength(2);
    // Either secret verifies it: a receiver moves to the new one at its own pace.
    expect(() => new Webhook(fresh).verify(again?.body ?? '', headers)).not.toThrow();
    expect(() => new Webhook(secret).verify(again?.body ?? '', headers)).not.toThrow();
    const none = await call('POST', `${hooks(owner)}/${hook.webhook_id}/deliveries/msg_000000000aaaaaaaaaaaaaaaa/replay`, {
      key: owner.key,
      body: {},
    });
    expect(none.status).toBe(404);
  });

  it('list, read, change and delete: never a secret; at most 10 an account; another account’s webhook is none of its business', async () => {
    const owner = await newOwner();
    const other = await newOwner();
    const made = await Promise.all(Array.from({ length: 10 }, (_, i) => register(owner, { description: `hook ${i}` })));
    const eleventh = await call('POST', hooks(owner), { key: owner.key, body: { url: `${receiverUrl}/x`, events: ['deck.updated'] } });
    expect(eleventh.status).toBe(422);
    expect(details(eleventh)).toEqual([['', 'too_many']]);
    const list = await call('GET', hooks(owner), { key: owner.key });
    expect(list.body.data).toHaveLength(10);
    expect(list.text).not.toContain('whsec_');
    const first = made[0]?.hook.webhook_id as string;
    const moved = await call('PATCH', `${hooks(owner)}/${first}`, {
      key: owner.key,
      body: { events: ['deck.updated', 'deck.unpublished'] },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data).toMatchObject({ events: ['deck.updated', 'deck.unpublished'], disabled: null });
    // A change that changes nothing writes nothing: its updated_at stays.
    const same = await call('PATCH', `${hooks(owner)}/${first}`, {
      key: owner.key,
      body: { events: ['deck.updated', 'deck.unpublished', 'deck.updated'] },
    });
    expect(same.body.data.updated_at).toBe(moved.body.data.updated_at);
    const changed = await call('PATCH', `${hooks(owner)}/${first}`, { key: owner.key, body: { disabled: true } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data).toMatchObject({
      events: ['deck.updated', 'deck.unpublished'],
      disabled: { reason: 'disabled by its owner' },
    });
    expect(changed.body.data.secret).toBeUndefined();
    // Another account's key, on its own path, finds no such webhook; on the owner's path, it is a mismatch.
    expect((await call('GET', `${hooks(other)}/${first}`, { key: other.key })).status).toBe(404);
    expect((await call('GET', `${hooks(owner)}/${first}`, { key: other.key })).status).toBe(403);
    expect((await call('DELETE', `${hooks(other)}/${first}`, { key: other.key })).status).toBe(404);
    const gone = await call('DELETE', `${hooks(owner)}/${first}`, { key: owner.key });
    expect(gone.status).toBe(200);
    expect((await call('GET', `${hooks(owner)}/${first}`, { key: owner.key })).status).toBe(404);
    // One deleted: room for one more.
    const room = await call('POST', hooks(owner), {
      key: owner.key,
      body: { url: `${receiverUrl}/y`, events: ['deck.updated'], filters: { tag: `unheard-${process.pid}-y` } },
    });
    expect(room.status).toBe(201);
    // The scope: a key without webhooks:manage is 403.
    const reader = await newOwner(['decks:read']);
    const r = await call('GET', hooks(reader), { key: reader.key });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('insufficient_scope');
  });

  it('bad bodies are 422 naming the field', async () => {
    const owner = await newOwner();
    const bad = async (body: unknown) => details(await call('POST', hooks(owner), { key: owner.key, body }));
    expect(await bad({ url: `${receiverUrl}/a`, events: [] })).toEqual([['events', 'invalid_value']]);
    expect((await bad({ url: `${receiverUrl}/a`, events: ['deck.eaten'] }))[0]?.[0]).toBe('events[0]');
    expect((await bad({ url: `${receiverUrl}/a`, events: ['deck.published'], filters: { color: 'red' } }))[0]?.[0]).toBe('filters.color');
    expect((await bad({ url: `${receiverUrl}/a`, events: ['deck.published'], secret: 'mine' }))[0]?.[0]).toBe('secret');
    expect(await bad({ url: 'ftp://example.com/x', events: ['deck.published'] })).toEqual([['url', 'invalid_value']]);
    const empty = await call('PATCH', `${hooks(owner)}/${(await register(owner)).hook.webhook_id}`, { key: owner.key, body: {} });
    expect(empty.status).toBe(422);
  });
});

describe("a deployed stack's targets (WEBHOOK_TARGETS=public)", () => {
  it.each([
    // The issue's own: the metadata service, a private address, loopback in IPv6 (and plain http, which a deployed stack refuses too).
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/hook',
    'http://[::1]/',
    'http://169.254.169.254/latest/meta-data/',
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.1/hook',
    'https://[::1]/hook',
    'https://127.0.0.1/hook',
    'https://[fd00:ec2::254]/hook',
    'http://hooks.example.com/plain-http',
  ])('%s → 422', async (url) => {
    const owner = await newOwner();
    const r = await fetch(`${deployed?.baseUrl}/api/v1/users/${owner.userId}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, events: ['deck.published'] }),
    });
    const body = (await r.json()) as { error: { code: string; details: { path: string }[] } };
    expect(r.status).toBe(422);
    expect(body.error.details.map((d) => d.path)).toEqual(['url']);
  });
});

describe('what a hostile review of webhooks found, held', () => {
  it('a 429 with retry_after 0 from a target that is not Discord waits the schedule (it was sent 773 times in 40 s)', async () => {
    const owner = await newOwner();
    const t = tag();
    const limited = await register(owner, { filters: { tag: t } });
    answers.set(limited.path, [429, 429, 429, 429, 429]);
    await createDeck(owner, { visibility: 'public', tags: [t] });
    await heardOn(limited.path, 1);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(heard.filter((h) => h.path === limited.path)).toHaveLength(1);
    const log = await call('GET', `${hooks(owner)}/${limited.hook.webhook_id}/deliveries`, { key: owner.key });
    expect(log.body.data[0]).toMatchObject({ status: 'pending', attempts: [{ status: 429 }] });
    expect(Date.parse(log.body.data[0].next_try) - Date.parse(log.body.data[0].attempts[0].at)).toBeGreaterThanOrEqual(5_000);
  });

  it('a deck made private before a retry is not sent again: its delivery fails, saying why; the receiver hears it leave', async () => {
    const owner = await newOwner();
    const t = tag();
    const hook = await register(owner, { filters: { tag: t }, events: ['deck.published', 'deck.unpublished'] });
    answers.set(hook.path, [500]);
    const made = await createDeck(owner, { visibility: 'public', tags: [t] });
    await heardOn(hook.path, 1);
    const hidden = await call('PATCH', `${owner.decks}/${made.body.data.id}`, { key: owner.key, body: { visibility: 'private' } });
    expect(hidden.status).toBe(200);
    const log = async () =>
      (await call('GET', `${hooks(owner)}/${hook.hook.webhook_id}/deliveries`, { key: owner.key })).body.data as {
        type: string;
        status: string;
        attempts: { status: number | null; error?: string }[];
      }[];
    let entries = await log();
    for (let i = 0; i < 150 && !entries.some((e) => e.type === 'deck.published' && e.status === 'failed'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      entries = await log();
    }
    const published = entries.find((e) => e.type === 'deck.published');
    expect(published?.status).toBe('failed');
    expect(published?.attempts.map((a) => [a.status, a.error ?? null])).toEqual([
      [500, null],
      [null, 'not sent: the deck is no longer public'],
    ]);
    // What the receiver heard: the deck published (answered 500), then unpublished — never its data again.
    const types = heard.filter((h) => h.path === hook.path).map((h) => JSON.parse(h.body).type);
    expect(types).toEqual(['deck.published', 'deck.unpublished']);
  });

  it("a deck changed out of a subscriber's filters is unpublished to it, into them published", async () => {
    const owner = await newOwner();
    const t = tag();
    const germany = await register(owner, { filters: { tag: t, main_faction: 'germany' }, events: ['deck.published', 'deck.unpublished'] });
    const made = await createDeck(owner, { visibility: 'public', tags: [t], deck_code: code('germany', 'italy') });
    await heardOn(germany.path, 1);
    const moved = await call('PATCH', `${owner.decks}/${made.body.data.id}`, {
      key: owner.key,
      body: { deck_code: code('soviet', 'usa') },
    });
    expect(moved.status, moved.text).toBe(200);
    const [, left] = await heardOn(germany.path, 2);
    expect(JSON.parse(left?.body ?? '{}')).toMatchObject({ type: 'deck.unpublished', data: { share_slug: made.body.data.share_slug } });
  });

  it('secrets rotated twice in a row all sign until their expiry: none answered is left unsigned', async () => {
    const owner = await newOwner();
    const t = tag();
    const { path, hook, secret } = await register(owner, { filters: { tag: t } });
    const rotate = async () =>
      (await call('PATCH', `${hooks(owner)}/${hook.webhook_id}`, { key: owner.key, body: { rotate_secret: true } })).body.data
        .secret as string;
    const [second, third] = [await rotate(), await rotate()];
    await createDeck(owner, { visibility: 'public', tags: [t] });
    const [delivery] = await heardOn(path, 1);
    const headers = delivery?.headers as Record<string, string>;
    expect(String(headers['webhook-signature']).split(' ')).toHaveLength(3);
    for (const s of [secret, second, third]) expect(() => new Webhook(s).verify(delivery?.body ?? '', headers)).not.toThrow();
  });

  it('a url with a control character or a space is 422; the one stored is the one called, as the URL parser reads it', async () => {
    const owner = await newOwner();
    for (const url of [
      `${receiverUrl}/o\u0000k`,
      `${receiverUrl}/o\nk`,
      `  ${receiverUrl}/ok  `,
      `${receiverUrl}/o k`,
      `${receiverUrl}/\u200bok`,
    ]) {
      const r = await call('POST', hooks(owner), { key: owner.key, body: { url, events: ['deck.published'] } });
      expect(r.status, url).toBe(422);
      expect(details(r)).toEqual([['url', 'invalid_value']]);
    }
    const upper = receiverUrl.replace('http://', 'HTTP://');
    const made = await call('POST', hooks(owner), { key: owner.key, body: { url: `${upper}/Path/../Hook`, events: ['deck.published'] } });
    expect(made.body.data.url).toBe(`${receiverUrl}/Hook`);
  });
});

describe("a deployed stack's targets, by name", () => {
  it.each([
    // /etc/hosts names it loopback: refused by what it resolves to, not by its name.
    ['https://localhost/hook', /resolves to an address deliveries never reach/],
    // Written another way, as a resolver may or may not take it (here it does not resolve): refused either way.
    ['https://LOCALHOST./hook', /resolves to an address deliveries never reach|does not resolve/],
  ])('%s: a name resolved by the system resolver → 422, saying why', async (url, why) => {
    const owner = await newOwner();
    const r = await fetch(`${deployed?.baseUrl}/api/v1/users/${owner.userId}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, events: ['deck.published'] }),
    });
    const body = (await r.json()) as { error: { details: { path: string; message: string }[] } };
    expect(r.status).toBe(422);
    expect(body.error.details).toEqual([expect.objectContaining({ path: 'url', message: expect.stringMatching(why) })]);
  });
});
