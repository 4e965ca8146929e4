/**
 * Webhook deliveries without a store (contract §13.5): which deck changes are events, what a change's payload holds,
 * what an attempt's answer makes of a delivery and its endpoint (the schedule, 410, 5 days of failing, Discord's 429),
 * an attempt against real sockets (a Discord-like 429's retry_after read, a redirect not followed, a loopback target
 * refused before any byte when loopback is not allowed), and a Discord target's message (within Discord's limits,
 * its text escaped, no mentions).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deckItem } from '#store/items/deck.ts';
import type { StoredDelivery, StoredWebhook } from '#store/items/webhook.ts';
import { afterAttempt, post } from '#webhooks/deliver.ts';
import { discordMessage } from '#webhooks/discord.ts';
import { catalogueChange, deckChanges } from '#webhooks/fan-out.ts';
import { code } from '../support/api.ts';
import { storedDeck } from '../support/decks.ts';

const item = (fields: Parameters<typeof storedDeck>[0]) => deckItem(storedDeck(fields));
const at = new Date('2026-11-30T12:00:00Z');

describe('which deck changes are events, to which subscribers', () => {
  const pub = item({ deck_code: code(), visibility: 'public' });
  const german = { main_faction: 'germany' };
  /** The events a change makes, each with whether it reaches no filters and a Germany filter. */
  const events = (before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined) =>
    deckChanges(before, after, '7', at, '').map((c) => [c.type, c.reaches?.({}) ?? true, c.reaches?.(german) ?? true]);
  it('made or created public: published; public no more or deleted: unpublished; its code or guide changed: updated', () => {
    expect(events(undefined, pub)).toEqual([['deck.published', true, false]]);
    expect(events({ ...pub, visibility: 'unlisted' }, pub)).toEqual([['deck.published', true, false]]);
    expect(events(pub, { ...pub, visibility: 'private' })).toEqual([['deck.unpublished', true, false]]);
    expect(events(pub, undefined)).toEqual([['deck.unpublished', true, false]]);
    for (const changed of [{ guide_description: 'Mulligan for tempo.' }, { guide: { ...(pub.guide as object), system: 'Control' } }])
      expect(events(pub, { ...pub, ...changed })).toEqual([
        ['deck.published', false, false],
        ['deck.updated', true, false],
        ['deck.unpublished', false, false],
      ]);
  });
  it('a deck changed into a filter is published to it, out of one unpublished to it (its slug alone), within one updated', () => {
    const toGermany = { ...pub, deck_code: code('germany', 'italy'), main_faction: 'germany', ally_faction: 'italy' };
    const changes = deckChanges(pub, toGermany, '7', at, '');
    expect(changes.map((c) => [c.type, c.reaches?.({}), c.reaches?.(german)])).toEqual([
      ['deck.published', false, true],
      ['deck.updated', true, false],
      ['deck.unpublished', false, false],
    ]);
    const back = deckChanges(toGermany, pub, '8', at, '');
    expect(back.map((c) => [c.type, c.reaches?.({}), c.reaches?.(german)])).toEqual([
      ['deck.published', false, false],
      ['deck.updated', true, false],
      ['deck.unpublished', false, true],
    ]);
    expect(back.find((c) => c.type === 'deck.unpublished')?.data).toEqual({ share_slug: pub.share_slug });
    // A tag moved: no content changed, so no update — but a tag filter sees the deck come or go.
    const tagged = deckChanges(pub, { ...pub, tags: ['meta'] }, '9', at, '');
    expect(tagged.map((c) => [c.type, c.reaches?.({ tag: 'meta' })])).toEqual([
      ['deck.published', true],
      ['deck.unpublished', false],
    ]);
  });
  it('a fold, an owner’s order, a private deck changing: none', () => {
    expect(events(pub, { ...pub, views: 40, likes: 3 })).toEqual([]);
    expect(events(pub, { ...pub, sort_order: 4 })).toEqual([]);
    const priv = { ...pub, visibility: 'private' };
    expect(events(priv, { ...priv, deck_code: code('germany', 'italy') })).toEqual([]);
    expect(events(undefined, priv)).toEqual([]);
  });
  it("a published deck's payload: the deck as search lists it, its code and absolute links; timed by the deck's own change", () => {
    const [published] = deckChanges(undefined, pub, '7', at, 'https://decks.example');
    expect(published?.data).toEqual({
      deck: expect.objectContaining({
        share_slug: pub.share_slug,
        deck_code: pub.deck_code,
        links: { page: `https://decks.example/d/${pub.share_slug}`, api: `https://decks.example/api/v1/decks/${pub.share_slug}` },
      }),
    });
    expect(published?.at.toISOString()).toBe(pub.updated_at);
    expect(published?.idAt).toBe(at);
  });
  it('another catalogue version in force is catalogue.published; the same version again is none', () => {
    const now = { version: 'v2', cards: 900, languages: ['en', 'de'], published_at: at.toISOString() };
    expect(catalogueChange({ ...now, version: 'v1' }, now, '9', at)?.data).toEqual({
      catalogue: { version: 'v2', previous: 'v1', cards: 900, languages: ['en', 'de'], published_at: at.toISOString() },
    });
    expect(catalogueChange(undefined, now, '9', at)?.data).toMatchObject({ catalogue: { previous: null } });
    expect(catalogueChange(now, { ...now }, '9', at)).toBeUndefined();
  });
});

describe('what an attempt makes of a delivery and its endpoint', () => {
  const hook: StoredWebhook = {
    webhook_id: 'w',
    user_id: 'u',
    url: 'https://hooks.example/x',
    events: ['deck.published'],
    filters: {},
    description: '',
    secrets: [],
    disabled: null,
    failing_since: null,
    created_at: at.toISOString(),
    updated_at: at.toISOString(),
    version: 3,
  };
  const delivery: StoredDelivery = {
    delivery_id: 'msg_x',
    webhook_id: 'w',
    user_id: 'u',
    type: 'deck.published',
    body: '{}',
    status: 'pending',
    retries: 0,
    attempts: [],
    next_try: at.toISOString(),
    created_at: at.toISOString(),
    version: 1,
  };
  it('a 2xx delivers it (a failing endpoint is failing no more); 410 fails it and disables the endpoint', () => {
    expect(afterAttempt(delivery, hook, { status: 204 }, at, 0)).toEqual({
      delivery: { ...delivery, status: 'delivered', next_try: null, attempts: [{ at: at.toISOString(), status: 204 }], version: 2 },
    });
    expect(afterAttempt(delivery, { ...hook, failing_since: at.toISOString() }, { status: 200 }, at, 0).webhook).toEqual({
      failing_since: null,
    });
    const gone = afterAttempt(delivery, hook, { status: 410 }, at, 0);
    expect(gone.delivery.status).toBe('failed');
    expect(gone.webhook?.disabled?.reason).toContain('410');
  });
  it('anything else waits the schedule (with up to a fifth more), its first failure marking the endpoint; past the last wait, failed', () => {
    const first = afterAttempt(delivery, hook, { status: 500 }, at, 0.99);
    expect(first.waitSeconds).toBe(6);
    expect(first.delivery).toMatchObject({ status: 'pending', retries: 1, next_try: new Date(at.getTime() + 6000).toISOString() });
    expect(first.webhook).toEqual({ failing_since: at.toISOString() });
    const noAnswer = afterAttempt(
      { ...delivery, retries: 3 },
      { ...hook, failing_since: at.toISOString() },
      { status: null, error: 'ECONNREFUSED' },
      at,
      0,
    );
    expect(noAnswer.waitSeconds).toBe(7200);
    expect(noAnswer.webhook).toBeUndefined();
    expect(noAnswer.delivery.attempts).toEqual([{ at: at.toISOString(), status: null, error: 'ECONNREFUSED' }]);
    const last = afterAttempt({ ...delivery, retries: 9 }, { ...hook, failing_since: at.toISOString() }, { status: 503 }, at, 0);
    expect(last.delivery.status).toBe('failed');
    expect(last.waitSeconds).toBeUndefined();
  });
  it('an endpoint failing for 5 days is disabled; a Discord target’s 429 waits its retry_after, another’s the schedule', () => {
    const since = new Date(at.getTime() - 5 * 86_400_000).toISOString();
    const tired = afterAttempt(delivery, { ...hook, failing_since: since }, { status: 500 }, at, 0);
    expect(tired.delivery.status).toBe('failed');
    expect(tired.webhook?.disabled?.reason).toContain('5 days');
    const discord = { ...hook, url: 'https://discord.com/api/webhooks/123456789012345678/abc' };
    expect(afterAttempt(delivery, discord, { status: 429, retryAfterSeconds: 2.5 }, at, 0).waitSeconds).toBe(2.5);
    // At least a second, and a retry all the same: the schedule's end ends a Discord target's 429s too.
    expect(afterAttempt(delivery, discord, { status: 429, retryAfterSeconds: 0 }, at, 0).waitSeconds).toBe(1);
    expect(afterAttempt({ ...delivery, retries: 9 }, discord, { status: 429, retryAfterSeconds: 0 }, at, 0).delivery.status).toBe('failed');
    // Another target's 429 (its retry_after, whatever it says) waits the schedule: a hostile review's receiver answering
    // 429 with retry_after 0 had one delivery sent 773 times in 40 s.
    expect(afterAttempt(delivery, hook, { status: 429, retryAfterSeconds: 0 }, at, 0).waitSeconds).toBe(5);
  });
  it('keeps the newest 20 attempts', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ at: at.toISOString(), status: 500 + i }));
    const next = afterAttempt({ ...delivery, attempts: many }, hook, { status: 204 }, at, 0);
    expect(next.delivery.attempts).toHaveLength(20);
    expect(next.delivery.attempts.at(-1)?.status).toBe(204);
    expect(next.delivery.attempts[0]?.status).toBe(501);
  });
});

describe('an attempt on real sockets', () => {
  let server: Server;
  let base = '';
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.url ?? '');
      if (req.url === '/limited')
        res
          .writeHead(429, { 'content-type': 'application/json' })
          .end('{"message":"You are being rate limited.","retry_after":1.5,"global":false}');
      else if (req.url === '/moved') res.writeHead(301, { location: '/elsewhere' }).end();
      else res.writeHead(204).end();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));
  const local = { https: false, loopback: true };

  it("reads a 429's retry_after (Discord's rate limit body), follows no redirect", async () => {
    expect(await post(`${base}/limited`, {}, '{}', local)).toEqual({ status: 429, retryAfterSeconds: 1.5 });
    expect(await post(`${base}/moved`, {}, '{}', local)).toEqual({ status: 301 });
    expect(seen).not.toContain('/elsewhere');
  });
  it('refuses a loopback target where loopback is not allowed, before any byte is sent', async () => {
    const before = seen.length;
    const refused = await post(`${base}/ok`, {}, '{}', { https: false, loopback: false });
    expect(refused.status).toBeNull();
    expect(refused.error).toEqual(expect.any(String));
    const byName = await post(`http://localhost:${new URL(base).port}/ok`, {}, '{}', { https: false, loopback: false });
    expect(byName.status).toBeNull();
    expect(seen.length).toBe(before);
  });
});

describe("a Discord target's message", () => {
  it("the deck's embed under a line naming the event, its name escaped, cut to Discord's limits, no mentions", () => {
    const deck = item({ deck_code: code(), visibility: 'public', name: '**@everyone** <b>x</b>'.repeat(40) });
    const [change] = deckChanges(undefined, deck, '1', at, 'https://decks.example');
    const body = JSON.stringify({ type: 'deck.published', timestamp: at.toISOString(), data: change?.data });
    const message = JSON.parse(discordMessage(body, 'https://decks.example'));
    expect(message.allowed_mentions).toEqual({ parse: [] });
    expect(message.content.length).toBeLessThanOrEqual(2000);
    expect(message.content).toContain('\\*\\*\\@everyone\\*\\*');
    expect(message.embeds).toHaveLength(1);
    expect(JSON.stringify(message.embeds[0]).length).toBeLessThan(6000 + 2000);
    expect(message.embeds[0].url).toMatch(/^https:\/\/decks\.example\//);
    const gone = JSON.parse(discordMessage(JSON.stringify({ type: 'deck.unpublished', data: { share_slug: 'abc' } }), ''));
    expect(gone).toEqual({ content: 'A deck is no longer public (abc)', allowed_mentions: { parse: [] } });
  });
});
