/**
 * The typed client (clients/typescript, contract §13.6) against a local runtime of this file's own, its store behind
 * the fault proxy: every operation of the published document called through the client, each call typed from the
 * generated types (no casts: test/client/client-package.test.ts reads this file for them); retries of a stalled, then
 * healthy store and of a gateway's 429 and reset connections; `paginate` over 120 decks; a second read of a deck paid
 * as a 304 on the wire.
 *
 * The gateway (API Gateway's throttling answer and a dropped connection) is a small stand-in in front of the runtime:
 * it answers 429 `{"message":"Too Many Requests"}` with Retry-After (as the document says API Gateway answers a
 * throttled client), or resets a connection, a given number of times, and otherwise passes the request on.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { join } from 'node:path';
import type { Middleware } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '#docs/openapi.ts';
import { createClient, type DeckLibraryClient, DeckLibraryError, errorCode, retryAfterMs } from '../../clients/typescript/src/index.ts';
import { code, deckable, newOwner, type Owner } from '../support/api.ts';
import { CLIENT_PACKAGE, readmeBot } from '../support/client.ts';
import { type Isolated, isolatedRuntime, quiet } from '../support/isolated.ts';

/** Every operation of the document, as `METHOD /path/{template}`. */
const OPERATIONS = Object.entries(openApiDocument().paths).flatMap(([path, item]) =>
  Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
);
/** The operations the client called (its middleware sees each call's method and path template). */
const called = new Set<string>();
const recordCalls: Middleware = {
  onRequest({ request, schemaPath }) {
    called.add(`${request.method} ${schemaPath}`);
  },
};

/** What went over the wire: each attempt's method, URL, chosen request headers and answer status. */
interface Sent {
  method: string;
  url: string;
  ifNoneMatch: string | null;
  idempotencyKey: string | null;
  status: number | 'network error';
}
let wire: Sent[] = [];
/** After an answer (for a test to heal the store when it sees the 503, say). */
let onAnswer: (sent: Sent) => void = () => {};
const recordingFetch = async (request: Request): Promise<Response> => {
  const sent: Sent = {
    method: request.method,
    url: request.url,
    ifNoneMatch: request.headers.get('if-none-match'),
    idempotencyKey: request.headers.get('idempotency-key'),
    status: 'network error',
  };
  wire.push(sent);
  const response = await fetch(request).catch((error: unknown) => {
    onAnswer(sent);
    throw error;
  });
  sent.status = response.status;
  onAnswer(sent);
  return response;
};

let store: Isolated;
let base: string;
let owner: Owner;
let liker: Owner;
const clientFor = (apiKey?: string, baseUrl = base, retries?: number): DeckLibraryClient => {
  const client = createClient({ baseUrl, apiKey, fetch: recordingFetch, retries });
  client.use(recordCalls);
  return client;
};

beforeAll(async () => {
  // Discord's interactions endpoint answers only with an application's public key set (any Ed25519 key will do here).
  const publicKey = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
  store = await isolatedRuntime({ DISCORD_PUBLIC_KEY: publicKey });
  base = store.runtime.baseUrl;
  owner = await newOwner(undefined, 'Client Owner');
  liker = await newOwner(undefined, 'Client Liker');
}, 120_000);
afterAll(() => store?.close());

describe('the typed client drives every operation of the document against the local runtime', () => {
  const state = { deckId: '', slug: '', version: 0, code: '', keyId: '', eventId: '', archetype: '' };

  it("an owner's decks: create (with an Idempotency-Key the client adds), list, read, update, validate, replace, OTK, versions, restore", async () => {
    const api = clientFor(owner.key);
    const path = { user_id: owner.userId };
    wire = [];
    const created = await api.POST('/api/v1/users/{user_id}/decks', {
      params: { path },
      body: { deck_code: code(), guide: { system: 'Typed client' }, visibility: 'public', tags: ['client'] },
    });
    expect(created.response.status).toBe(201);
    if (!created.data) throw new Error('no deck');
    const deck = created.data.data;
    state.deckId = deck.id;
    state.slug = deck.share_slug;
    state.code = deck.deck_code;
    // The create carried an Idempotency-Key the caller did not give.
    expect(wire.map((s) => s.idempotencyKey)).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);

    const listed = await api.GET('/api/v1/users/{user_id}/decks', { params: { path, query: { limit: 10 } } });
    expect(listed.data?.data.map((d) => d.id)).toEqual([deck.id]);
    const read = await api.GET('/api/v1/users/{user_id}/decks/{deck_id}', { params: { path: { ...path, deck_id: deck.id } } });
    expect(read.data?.data.guide?.system).toBe('Typed client');

    const patched = await api.PATCH('/api/v1/users/{user_id}/decks/{deck_id}', {
      params: { path: { ...path, deck_id: deck.id }, header: { 'If-Match': `"${deck.version}"` } },
      body: { sort_order: 3 },
    });
    expect(patched.data?.data.version).toBe(deck.version + 1);
    state.version = patched.data?.data.version ?? 0;
    const stale = await api.PATCH('/api/v1/users/{user_id}/decks/{deck_id}', {
      params: { path: { ...path, deck_id: deck.id }, header: { 'If-Match': `"${deck.version}"` } },
      body: { sort_order: 4 },
    });
    expect([stale.response.status, errorCode(stale.error)]).toEqual([412, 'precondition_failed']);

    const valid = await api.POST('/api/v1/users/{user_id}/decks/validate', {
      params: { path },
      body: { deck_code: code('germany', 'italy'), guide: { system: 'Check' } },
    });
    expect(valid.data?.data.valid).toBe(true);
    const soviet = deckable('soviet');
    const replaced = await api.POST('/api/v1/users/{user_id}/decks/replace', {
      params: { path },
      body: {
        deck_code: code(),
        replacements: [{ remove_card_id: soviet[0]?.card_id ?? '', add_card_id: soviet.at(-1)?.card_id ?? '', count: 1 }],
      },
    });
    expect(replaced.response.status).toBe(200);
    expect(replaced.data?.data.deck_code).toMatch(/^%%/);

    const otk = await api.GET('/api/v1/users/{user_id}/decks/{deck_id}/otk', { params: { path: { ...path, deck_id: deck.id } } });
    expect(otk.data?.data.items).toEqual(expect.any(Array));
    const versions = await api.GET('/api/v1/users/{user_id}/decks/{deck_id}/versions', { params: { path: { ...path, deck_id: deck.id } } });
    expect(versions.data?.data.map((v) => v.version)).toEqual([2, 1]);
    const first = await api.GET('/api/v1/users/{user_id}/decks/{deck_id}/versions/{version}', {
      params: { path: { ...path, deck_id: deck.id, version: '1' } },
    });
    expect(first.data?.data.version).toBe(1);
    const restored = await api.POST('/api/v1/users/{user_id}/decks/{deck_id}/versions/{version}/restore', {
      params: { path: { ...path, deck_id: deck.id, version: '1' } },
      body: {},
    });
    expect(restored.data?.data.version).toBe(3);
    state.version = 3;
  });

  it("a second read of a code's facts is a 304 on the wire, answered from what the client kept; a changed deck is read afresh", async () => {
    const api = clientFor();
    const params = { path: { code: code('germany', 'italy') } };
    wire = [];
    const one = await api.GET('/api/v1/codes/{code}', { params });
    const two = await api.GET('/api/v1/codes/{code}', { params });
    expect(wire.map((s) => [s.status, s.ifNoneMatch])).toEqual([
      [200, null],
      [304, one.response.headers.get('etag')],
    ]);
    expect(two.response.status).toBe(200);
    expect(two.data).toEqual(one.data);
    expect(two.data?.data.main_faction).toBe('germany');

    // The cache never answers for the server: a deck changed by another client (another cache) is read afresh.
    const mine = clientFor(owner.key);
    const deck = { path: { user_id: owner.userId, deck_id: state.deckId } };
    await mine.GET('/api/v1/users/{user_id}/decks/{deck_id}', { params: deck });
    await clientFor(owner.key).PATCH('/api/v1/users/{user_id}/decks/{deck_id}', { params: deck, body: { sort_order: 7 } });
    wire = [];
    const fresh = await mine.GET('/api/v1/users/{user_id}/decks/{deck_id}', { params: deck });
    expect(wire.map((s) => [s.status, s.ifNoneMatch])).toEqual([[200, `"${state.version}"`]]);
    expect(fresh.data?.data.sort_order).toBe(7);

    // The cache is opt-out: a client without it never sends If-None-Match.
    const uncached = createClient({ baseUrl: base, fetch: recordingFetch, cache: false });
    wire = [];
    await uncached.GET('/api/v1/codes/{code}', { params });
    await uncached.GET('/api/v1/codes/{code}', { params });
    expect(wire.map((s) => [s.status, s.ifNoneMatch])).toEqual([
      [200, null],
      [200, null],
    ]);
  });

  it('public reads: search and its feed, a shared deck and its OTK, versions, similar, diff, the page and the image', async () => {
    const api = clientFor();
    const search = await api.GET('/api/v1/decks', { params: { query: { tag: 'client' } } });
    expect(search.data?.data.map((d) => d.share_slug)).toEqual([state.slug]);
    const feed = await api.GET('/api/v1/decks/feed.atom', { params: { query: { tag: 'client' } }, parseAs: 'text' });
    expect(feed.data).toContain(`/d/${state.slug}`);
    const shared = await api.GET('/api/v1/decks/{share_slug}', { params: { path: { share_slug: state.slug } } });
    expect(shared.data?.data.author.display_name).toBe('Client Owner');
    const otk = await api.GET('/api/v1/decks/{share_slug}/otk', { params: { path: { share_slug: state.slug } } });
    expect(otk.response.status).toBe(200);
    const versions = await api.GET('/api/v1/decks/{share_slug}/versions', { params: { path: { share_slug: state.slug } } });
    expect(versions.data?.data.length).toBeGreaterThan(0);
    const similar = await api.GET('/api/v1/decks/{share_slug}/similar', { params: { path: { share_slug: state.slug } } });
    expect(similar.data?.data).toEqual([]);
    const similarToCode = await api.GET('/api/v1/codes/{code}/similar', { params: { path: { code: code('soviet', 'usa', 1) } } });
    expect(similarToCode.data?.data.map((d) => d.share_slug)).toEqual([state.slug]);
    const diff = await api.GET('/api/v1/decks/diff', { params: { query: { from: code(), to: code('soviet', 'usa', 1) } } });
    expect(diff.response.status).toBe(200);
    const page = await api.GET('/d/{share_slug}', { params: { path: { share_slug: state.slug } }, parseAs: 'text' });
    expect(page.data).toContain('<html');
    const image = await api.GET('/api/v1/decks/{share_slug}/image.png', {
      params: { path: { share_slug: state.slug } },
      parseAs: 'arrayBuffer',
    });
    expect(
      Buffer.from(image.data ?? new ArrayBuffer(0))
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('likes: one account likes and unlikes another’s public deck', async () => {
    const api = clientFor(liker.key);
    const params = { path: { user_id: liker.userId, share_slug: state.slug } };
    const liked = await api.PUT('/api/v1/users/{user_id}/likes/{share_slug}', { params });
    expect(liked.data?.data).toMatchObject({ liked: true, likes: 1 });
    const unliked = await api.DELETE('/api/v1/users/{user_id}/likes/{share_slug}', { params });
    expect(unliked.data?.data).toMatchObject({ liked: false, likes: 0 });
  });

  it('any deck code: its facts, image, page, text, a pasted code; Discord refuses an unsigned interaction', async () => {
    const api = clientFor();
    const deckCode = code('germany', 'italy');
    const facts = await api.GET('/api/v1/codes/{code}', { params: { path: { code: deckCode } } });
    expect(facts.data?.data.main_faction).toBe('germany');
    const image = await api.GET('/api/v1/codes/{code}/image.png', { params: { path: { code: deckCode } }, parseAs: 'arrayBuffer' });
    expect(image.response.headers.get('content-type')).toBe('image/png');
    const page = await api.GET('/c/{code}', { params: { path: { code: deckCode } }, parseAs: 'text' });
    expect(page.data).toContain('<html');
    const text = await api.GET('/api/v1/codes/{code}/deck.txt', { params: { path: { code: deckCode } }, parseAs: 'text' });
    expect(text.data).toContain(deckCode);
    const pasted = await api.POST('/api/v1/codes', {
      body: deckCode,
      bodySerializer: (body) => body,
      headers: { 'content-type': 'text/plain' },
    });
    expect(pasted.data?.data.deck_code).toBe(deckCode);
    const discord = await api.POST('/api/v1/discord/interactions', { body: {} });
    expect(discord.response.status).toBe(401);
  });

  it('meta, archetypes, bulk data, cards, languages and the reference', async () => {
    const api = clientFor();
    const cards = await api.GET('/api/v1/meta/cards', { params: { query: { main_faction: 'soviet' } } });
    expect(cards.response.status).toBe(200);
    const factions = await api.GET('/api/v1/meta/factions');
    expect(factions.response.status).toBe(200);
    const archetypes = await api.GET('/api/v1/archetypes');
    expect(archetypes.response.status).toBe(200);
    const first = archetypes.data?.data[0]?.id ?? 'none';
    const archetype = await api.GET('/api/v1/archetypes/{archetype_id}', { params: { path: { archetype_id: first } } });
    expect(archetype.response.status).toBe(first === 'none' ? 404 : 200);
    const bulk = await api.GET('/api/v1/bulk-data');
    expect(bulk.response.status).toBe(200);
    const file = await api.GET('/api/v1/bulk-data/{bulk_id}', { params: { path: { bulk_id: bulk.data?.data[0]?.id ?? 'decks' } } });
    expect([200, 404]).toContain(file.response.status);
    const catalogue = await api.GET('/api/v1/cards', { params: { query: { limit: 5 } } });
    const cardId = catalogue.data?.data[0]?.card_id ?? '';
    const card = await api.GET('/api/v1/cards/{card_id}', { params: { path: { card_id: cardId } } });
    expect(card.data?.data.card_id).toBe(cardId);
    const languages = await api.GET('/api/v1/languages');
    expect(languages.data?.data.map((l) => l.tag)).toContain('en');
    const document = await api.GET('/api/v1/openapi.json');
    expect(document.data).toMatchObject({ openapi: '3.1.0' });
    const docs = await api.GET('/api/v1/docs', { parseAs: 'text' });
    expect(docs.data).toContain('<html');
    const asset = await api.GET('/api/v1/docs/{asset}', { params: { path: { asset: 'scalar.js' } }, parseAs: 'text' });
    expect(asset.response.status).toBe(200);
  });

  it('an account: keys made and revoked, its collection and what a deck misses, its export, its erasure', async () => {
    const api = clientFor(owner.key);
    const path = { user_id: owner.userId };
    const made = await api.POST('/api/v1/users/{user_id}/keys', { params: { path }, body: { scopes: ['decks:read'], label: 'bot' } });
    expect(made.response.status).toBe(201);
    state.keyId = made.data?.data.key_id ?? '';
    const keys = await api.GET('/api/v1/users/{user_id}/keys', { params: { path } });
    expect(keys.data?.data.map((k) => k.key_id)).toContain(state.keyId);
    const revoked = await api.DELETE('/api/v1/users/{user_id}/keys/{key_id}', {
      params: { path: { ...path, key_id: state.keyId } },
      body: {},
    });
    expect(revoked.data?.data).toEqual({ key_id: state.keyId, revoked: true });

    const soviet = deckable('soviet');
    const owned = soviet[0]?.card_id ?? '';
    const put = await api.PUT('/api/v1/users/{user_id}/collection', { params: { path }, body: { cards: { [owned]: 2 } } });
    expect(put.response.status).toBe(200);
    const patched = await api.PATCH('/api/v1/users/{user_id}/collection', { params: { path }, body: { add: { [owned]: 1 } } });
    expect(patched.response.status).toBe(200);
    const collection = await api.GET('/api/v1/users/{user_id}/collection', { params: { path } });
    expect(collection.response.status).toBe(200);
    const missing = await api.GET('/api/v1/users/{user_id}/collection/missing', { params: { path, query: { code: code() } } });
    expect(missing.response.status).toBe(200);
    const exported = await api.GET('/api/v1/users/{user_id}/export', { params: { path } });
    expect(exported.data?.data.decks.map((d) => d.id)).toContain(state.deckId);

    const leaving = await newOwner(undefined, 'Client Leaver');
    const erased = await clientFor(leaving.key).DELETE('/api/v1/users/{user_id}', {
      params: { path: { user_id: leaving.userId } },
      body: { confirm: leaving.userId },
    });
    expect(erased.data?.data).toMatchObject({ user_id: leaving.userId, deleted: true });
  });

  it('events: an organizer creates and changes one, a player submits, reads and withdraws, the lists and the page', async () => {
    const organizer = clientFor(owner.key);
    const player = clientFor(liker.key);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const created = await organizer.POST('/api/v1/events', {
      body: {
        name: 'Client Cup',
        format: 'standard',
        pool_date: yesterday,
        decks_per_player: 1,
        deadline: new Date(Date.now() + 600_000).toISOString(),
      },
    });
    expect(created.response.status).toBe(201);
    const eventId = created.data?.data.event_id ?? '';
    const path = { event_id: eventId };
    const read = await player.GET('/api/v1/events/{event_id}', { params: { path } });
    expect(read.data?.data.name).toBe('Client Cup');
    const changed = await organizer.PATCH('/api/v1/events/{event_id}', { params: { path }, body: { description: 'Typed' } });
    expect(changed.data?.data.description).toBe('Typed');
    const entryPath = { event_id: eventId, user_id: liker.userId };
    const entered = await player.PUT('/api/v1/events/{event_id}/entries/{user_id}', {
      params: { path: entryPath },
      body: { decks: [{ deck_code: code() }] },
    });
    expect(entered.data?.data.lock_hash).toMatch(/^[0-9a-f]{64}$/);
    const mine = await player.GET('/api/v1/events/{event_id}/entries/{user_id}', { params: { path: entryPath } });
    expect(mine.data?.data.decks.length).toBe(1);
    const list = await organizer.GET('/api/v1/events/{event_id}/entries', { params: { path } });
    expect(list.data?.data.map((e) => e.display_name)).toEqual(['Client Liker']);
    const csv = await organizer.GET('/api/v1/events/{event_id}/entries.csv', { params: { path }, parseAs: 'text' });
    expect(csv.data).toContain('Client Liker');
    const page = await player.GET('/e/{event_id}', { params: { path }, parseAs: 'text' });
    expect(page.data).toContain('Client Cup');
    const withdrawn = await player.DELETE('/api/v1/events/{event_id}/entries/{user_id}', { params: { path: entryPath } });
    expect(withdrawn.response.status).toBe(200);
  });

  it('webhooks: registered, listed, read, changed, their deliveries listed and one replayed, deleted', async () => {
    const api = clientFor(owner.key);
    const path = { user_id: owner.userId };
    const tag = `client-hook-${process.pid}`;
    const made = await api.POST('/api/v1/users/{user_id}/webhooks', {
      params: { path },
      // Nothing listens on port 9: its deliveries fail and wait their retries; the log shows them all the same.
      body: { url: 'http://127.0.0.1:9/hook', events: ['deck.published'], filters: { tag } },
    });
    expect(made.data?.data.secret).toMatch(/^whsec_/);
    const one = { ...path, webhook_id: made.data?.data.webhook_id ?? '' };
    const list = await api.GET('/api/v1/users/{user_id}/webhooks', { params: { path } });
    expect(list.data?.data.map((w) => w.webhook_id)).toContain(one.webhook_id);
    const read = await api.GET('/api/v1/users/{user_id}/webhooks/{webhook_id}', { params: { path: one } });
    expect(read.data?.data.filters).toEqual({ tag });
    const changed = await api.PATCH('/api/v1/users/{user_id}/webhooks/{webhook_id}', {
      params: { path: one },
      body: { description: 'typed' },
    });
    expect(changed.data?.data.description).toBe('typed');
    await api.POST('/api/v1/users/{user_id}/decks', {
      body: { deck_code: code(), guide: { system: 'Hooked' }, visibility: 'public', tags: [tag] },
      params: { path },
    });
    let deliveries: { delivery_id: string }[] = [];
    for (let i = 0; i < 100 && deliveries.length === 0; i++) {
      const log = await api.GET('/api/v1/users/{user_id}/webhooks/{webhook_id}/deliveries', { params: { path: one } });
      deliveries = log.data?.data ?? [];
      if (deliveries.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    const deliveryId = deliveries[0]?.delivery_id ?? '';
    const replayed = await api.POST('/api/v1/users/{user_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/replay', {
      params: { path: { ...one, delivery_id: deliveryId } },
      body: {},
    });
    expect(replayed.data?.data).toMatchObject({ delivery_id: deliveryId, status: 'pending' });
    const deleted = await api.DELETE('/api/v1/users/{user_id}/webhooks/{webhook_id}', { params: { path: one } });
    expect(deleted.response.status).toBe(200);
  });

  it('a deck deleted', async () => {
    const api = clientFor(owner.key);
    const deleted = await api.DELETE('/api/v1/users/{user_id}/decks/{deck_id}', {
      params: { path: { user_id: owner.userId, deck_id: state.deckId } },
      body: {},
    });
    expect(deleted.data?.data).toEqual({ id: state.deckId, deleted: true });
  });

  it('has called every operation of the document', () => {
    expect(OPERATIONS.filter((op) => !called.has(op))).toEqual([]);
  });
});

describe("the README's bot (clients/typescript/README.md), run as printed", () => {
  it("reads a code's facts, the newest decks of a nation and every deck of the key's account", async () => {
    const dir = join(CLIENT_PACKAGE, '.readme-check');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `bot-${process.pid}.ts`);
    writeFileSync(file, readmeBot());
    const { deckBot } = await import(file);
    rmSync(file);
    const reader = await newOwner(undefined, 'Client Reader');
    const mine = clientFor(reader.key);
    for (const visibility of ['public', 'private'] as const) {
      await mine.POST('/api/v1/users/{user_id}/decks', {
        params: { path: { user_id: reader.userId } },
        body: { deck_code: code('usa', 'britain'), guide: { system: `Read ${visibility}` }, visibility },
      });
    }
    const bot = deckBot(base, reader.key);
    expect(await bot.facts(code('germany', 'italy'))).toEqual({ nations: 'germany/italy', valid: true });
    expect((await bot.newest('usa'))[0]).toMatch(/\/d\/[A-Za-z0-9]{12}$/);
    expect((await bot.decksOf(reader.userId)).length).toBe(2);
    await expect(bot.facts('%%nonsense')).rejects.toThrow(/invalid_parameter/);
  });
});

describe('paginate', () => {
  it('walks an owner’s 120 decks and a search of them, page by page through next_cursor, each once', async () => {
    const walker = await newOwner(undefined, 'Client Walker');
    const api = clientFor(walker.key);
    const path = { user_id: walker.userId };
    const ids: string[] = [];
    for (let batch = 0; batch < 12; batch++) {
      const made = await Promise.all(
        Array.from({ length: 10 }, () =>
          api.POST('/api/v1/users/{user_id}/decks', {
            params: { path },
            body: { deck_code: code('britain', 'usa'), guide: { system: 'Walked' }, visibility: 'public', tags: ['walked'] },
          }),
        ),
      );
      for (const m of made) ids.push(m.data?.data.id ?? `failed ${m.response.status}`);
    }
    expect(ids.filter((id) => id.startsWith('failed'))).toEqual([]);
    await quiet(store.proxy);

    wire = [];
    const walked: string[] = [];
    for await (const deck of api.paginate('/api/v1/users/{user_id}/decks', { params: { path, query: { limit: 25 } } }))
      walked.push(deck.id);
    expect(walked.length).toBe(120);
    expect(new Set(walked)).toEqual(new Set(ids));
    expect(wire.length).toBe(5);

    const found: string[] = [];
    for await (const item of clientFor().paginate('/api/v1/decks', { params: { query: { tag: 'walked', limit: 50 } } }))
      found.push(item.share_slug);
    expect(new Set(found).size).toBe(120);
    expect(found.length).toBe(120);
  });

  it('throws the API’s error envelope, typed, when a page fails', async () => {
    const walk = clientFor().paginate('/api/v1/users/{user_id}/decks', { params: { path: { user_id: owner.userId } } });
    const error = await walk.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DeckLibraryError);
    if (!(error instanceof DeckLibraryError)) return;
    expect([error.status, error.code, error.requestId]).toEqual([401, 'unauthorized', expect.any(String)]);
  });
});

/**
 * A stand-in of API Gateway in front of the runtime: `throttle` 429s, then `unavailable` 503s of its own (HTML, not the
 * API's envelope), then `reset` connections dropped before the API sees the request, then `lose` requests that reach
 * the API whose answers are dropped; then it passes requests on.
 */
interface Plan {
  throttle: number;
  unavailable: number;
  reset: number;
  lose: number;
}
async function gateway(upstream: string): Promise<{ url: string; plan: Plan; close(): Promise<void> }> {
  const plan: Plan = { throttle: 0, unavailable: 0, reset: 0, lose: 0 };
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    if (plan.throttle > 0) {
      plan.throttle--;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"message":"Too Many Requests"}');
      return;
    }
    if (plan.unavailable > 0) {
      plan.unavailable--;
      res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '0' }).end('<html><body>Service Unavailable</body></html>');
      return;
    }
    if (plan.reset > 0) {
      plan.reset--;
      req.socket.destroy();
      return;
    }
    const losing = plan.lose > 0;
    if (losing) plan.lose--;
    const forward = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        if (losing) {
          answer.resume();
          answer.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the gateway stand-in has no port');
  const { port } = address;
  return {
    url: `http://127.0.0.1:${port}`,
    plan,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A server that answers each request with the next of `answers` (status, content type, body), and counts them. */
async function liar(answers: [number, string, string][]): Promise<{ url: string; served: () => number; close(): Promise<void> }> {
  let served = 0;
  const server = http.createServer((_req, res) => {
    const [status, type, body] = answers[Math.min(served, answers.length - 1)] ?? [500, 'text/plain', ''];
    served++;
    res.writeHead(status, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the liar has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    served: () => served,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('retries', () => {
  it('a read and a create meet a stalled store (503, Retry-After 1): each is sent again once the store heals, the create once only', async () => {
    const api = clientFor(owner.key);
    const path = { user_id: owner.userId };
    const before = (await api.GET('/api/v1/users/{user_id}/decks', { params: { path } })).data?.data.length ?? -1;
    store.proxy.set('*', { kind: 'stall' });
    onAnswer = (sent) => {
      if (sent.status === 503) store.proxy.clear();
    };
    wire = [];
    const started = Date.now();
    const created = await api.POST('/api/v1/users/{user_id}/decks', {
      params: { path },
      body: { deck_code: code('japan', 'germany'), guide: { system: 'Stalled' } },
    });
    expect(wire.map((s) => s.status)).toEqual([503, 201]);
    // The same Idempotency-Key both times: had the first landed, the second would answer it rather than make another.
    expect(new Set(wire.map((s) => s.idempotencyKey)).size).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(retryAfterMs('1') ?? 0);
    expect(created.response.status).toBe(201);

    store.proxy.set('*', { kind: 'stall' });
    wire = [];
    const listed = await api.GET('/api/v1/users/{user_id}/decks', { params: { path } });
    expect(wire.map((s) => s.status)).toEqual([503, 200]);
    expect(listed.data?.data.length).toBe(before + 1);
    onAnswer = () => {};
  });

  it("API Gateway's 429 is retried after its Retry-After; a dropped connection of a GET is retried; of a POST without an Idempotency-Key it is not", async () => {
    const front = await gateway(base);
    try {
      const api = clientFor(owner.key, front.url);
      front.plan.throttle = 2;
      wire = [];
      const read = await api.GET('/api/v1/languages');
      expect(wire.map((s) => s.status)).toEqual([429, 429, 200]);
      expect(read.data?.data.length).toBeGreaterThan(0);

      front.plan.reset = 1;
      wire = [];
      const again = await api.GET('/api/v1/cards', { params: { query: { limit: 1 } } });
      expect(wire.map((s) => s.status)).toEqual(['network error', 200]);
      expect(again.response.status).toBe(200);

      front.plan.reset = 1;
      wire = [];
      const key = api.POST('/api/v1/users/{user_id}/keys', {
        params: { path: { user_id: owner.userId } },
        body: { scopes: ['decks:read'] },
      });
      await expect(key).rejects.toThrow();
      expect(wire.map((s) => s.status)).toEqual(['network error']);

      // Past the retries (3 by default), the last answer is the caller's: the 429, its body API Gateway's own.
      front.plan.throttle = 4;
      wire = [];
      const throttled = await clientFor(undefined, front.url, 1).GET('/api/v1/languages');
      expect(wire.map((s) => s.status)).toEqual([429, 429]);
      expect(throttled.error).toEqual({ message: 'Too Many Requests' });
      front.plan.throttle = 0;
    } finally {
      await front.close();
    }
  });
});

describe('what a hostile review of the client found, held', () => {
  it('a create whose route takes no Idempotency-Key is not sent again after its answer is lost, even with a key of the caller’s; one whose route takes one is, and makes one deck', async () => {
    const front = await gateway(base);
    try {
      const api = clientFor(owner.key, front.url);
      const path = { user_id: owner.userId };
      const keysBefore = (await api.GET('/api/v1/users/{user_id}/keys', { params: { path } })).data?.data.length ?? -1;
      front.plan.lose = 1;
      wire = [];
      const made = api.POST('/api/v1/users/{user_id}/keys', {
        params: { path },
        headers: { 'Idempotency-Key': 'caller-key-1' },
        body: { scopes: ['decks:read'], label: 'lost' },
      });
      await expect(made).rejects.toThrow();
      expect(wire.map((s) => s.status)).toEqual(['network error']);
      expect((await api.GET('/api/v1/users/{user_id}/keys', { params: { path } })).data?.data.length).toBe(keysBefore + 1);

      const decksBefore = (await api.GET('/api/v1/users/{user_id}/decks', { params: { path } })).data?.data.length ?? -1;
      front.plan.lose = 1;
      wire = [];
      const deck = await api.POST('/api/v1/users/{user_id}/decks', {
        params: { path },
        body: { deck_code: code('usa', 'japan'), guide: { system: 'Lost answer' } },
      });
      expect(wire.map((s) => s.status)).toEqual(['network error', 201]);
      expect(deck.response.headers.get('idempotent-replayed')).toBe('true');
      expect((await api.GET('/api/v1/users/{user_id}/decks', { params: { path } })).data?.data.length).toBe(decksBefore + 1);
    } finally {
      await front.close();
    }
  });

  it("a 503 that is not the API's (another hop's page) is not retried for a create that may have been applied; for a read it is", async () => {
    const front = await gateway(base);
    try {
      const api = clientFor(owner.key, front.url);
      front.plan.unavailable = 1;
      wire = [];
      const made = await api.POST('/api/v1/users/{user_id}/keys', {
        params: { path: { user_id: owner.userId } },
        body: { scopes: ['decks:read'] },
      });
      expect([made.response.status, wire.map((s) => s.status)]).toEqual([503, [503]]);
      front.plan.unavailable = 1;
      wire = [];
      await api.GET('/api/v1/languages');
      expect(wire.map((s) => s.status)).toEqual([503, 200]);
    } finally {
      await front.close();
    }
  });

  it('paginate stops or throws on a lying server: a repeated cursor, none, an empty one, a page without a list, HTML', async () => {
    const page = (data: unknown, next: unknown): [number, string, string] => [
      200,
      'application/json',
      JSON.stringify({ data, meta: { next_cursor: next } }),
    ];
    const cases: [string, [number, string, string][], number | string][] = [
      ['the same cursor again', [page([{ id: 'a' }], 'same'), page([{ id: 'b' }], 'same')], 'a cursor given twice'],
      ['no cursor', [[200, 'application/json', JSON.stringify({ data: [{ id: 'a' }], meta: {} })]], 1],
      ['an empty cursor', [page([{ id: 'a' }], '')], 1],
      ['data not a list', [page('abc', null)], 'without a data list'],
      ['no meta', [[200, 'application/json', JSON.stringify({ data: [] })]], 'without a data list'],
      ['an HTML page', [[200, 'application/json', '<html>']], 'not JSON'],
    ];
    for (const [name, answers, expected] of cases) {
      const server = await liar(answers);
      try {
        const seen: string[] = [];
        const walk = async () => {
          for await (const item of createClient({ baseUrl: server.url }).paginate('/api/v1/decks')) seen.push(item.id);
        };
        if (typeof expected === 'number') {
          await walk();
          expect([name, seen.length, server.served()]).toEqual([name, expected, 1]);
        } else {
          const error = await walk().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect([name, error instanceof DeckLibraryError, String(error)]).toEqual([name, true, expect.stringContaining(expected)]);
          expect(server.served()).toBeLessThanOrEqual(2);
        }
      } finally {
        await server.close();
      }
    }
  });

  it('refuses options that would lift its bounds, and a base URL that is not http(s)', () => {
    for (const [name, options] of [
      ['retries NaN', { retries: Number.NaN }],
      ['retries -1', { retries: -1 }],
      ['cacheEntries -1', { cacheEntries: -1 }],
      ['cacheEntries NaN', { cacheEntries: Number.NaN }],
      ['maxRetryDelayMs Infinity', { maxRetryDelayMs: Number.POSITIVE_INFINITY }],
    ] as const)
      expect(() => createClient({ baseUrl: base, ...options }), name).toThrow(RangeError);
    expect(() => createClient({ baseUrl: 'ftp://127.0.0.1/' })).toThrow(TypeError);
  });

  it('reads Retry-After as delay-seconds or an HTTP-date only (RFC 9110 §10.2.3), anything else backing off', () => {
    const now = Date.parse('Sun, 06 Nov 1994 08:49:00 GMT');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sun, 06 Nov 1994 08:49:37 GMT', now)).toBe(37_000);
    expect(retryAfterMs('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(37_000);
    expect(retryAfterMs('Sun Nov  6 08:49:37 1994', now)).toBe(37_000);
    for (const v of ['-1', '1.5', '1, 2', 'soon', '', ' ', '0x10', '１']) expect([v, retryAfterMs(v, now)]).toEqual([v, undefined]);
  });

  it('stops a wait for a retry when its call is aborted', async () => {
    const front = await gateway(base);
    try {
      const api = clientFor(undefined, front.url);
      front.plan.throttle = 1;
      const started = Date.now();
      const aborted = api.GET('/api/v1/languages', { signal: AbortSignal.timeout(200) });
      await expect(aborted).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(retryAfterMs('1') ?? 0);
    } finally {
      await front.close();
    }
  });

  it("a call asking the cache away (cache: 'no-store') is neither revalidated nor kept; a redirected read keeps its URL, fresh or kept", async () => {
    const api = clientFor();
    wire = [];
    await api.GET('/api/v1/languages', { cache: 'no-store' });
    await api.GET('/api/v1/languages', { cache: 'no-store' });
    await api.GET('/api/v1/languages');
    expect(wire.map((s) => s.ifNoneMatch)).toEqual([null, null, null]);
    // A code spelt otherwise answers 308 to its canonical URL: the answer says where it came from, kept or not.
    // The code as the game prints it (%%…|…), sent percent-encoded: the API answers 308 to its URL form.
    const printed = code('germany', 'italy');
    wire = [];
    const first = await api.GET('/api/v1/codes/{code}', { params: { path: { code: printed } } });
    const second = await api.GET('/api/v1/codes/{code}', { params: { path: { code: printed } } });
    expect(wire.map((s) => s.status)).toEqual([200, 304]);
    for (const r of [first, second]) {
      expect([r.response.status, r.response.redirected]).toEqual([200, true]);
      expect(r.response.url).toMatch(/\/api\/v1\/codes\/[^%]+$/);
    }
  });

  it('names a compliant create with a v4 UUID where crypto.randomUUID is missing (a page served over http)', async () => {
    const original = Object.getOwnPropertyDescriptor(crypto, 'randomUUID');
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      wire = [];
      await clientFor(owner.key).POST('/api/v1/users/{user_id}/decks', {
        params: { path: { user_id: owner.userId } },
        body: { deck_code: code('britain', 'france'), guide: { system: 'No randomUUID' } },
      });
      expect(wire[0]?.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      if (original) Object.defineProperty(crypto, 'randomUUID', original);
      else Reflect.deleteProperty(crypto, 'randomUUID');
    }
  });
});
