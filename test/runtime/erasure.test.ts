/**
 * An account's erasure (contract §9.4), on a store of this file's own behind the fault proxy: an account
 * with public, unlisted and private decks, versions, likes given and received, views, keys,
 * remembered answers of Idempotency-Key requests, an entry in another account's event, an event it organizes and a
 * webhook with its deliveries is erased by a request the proxy interrupts (one deck's delete keeps failing: 503),
 * then by its repeat. From the repeat's answer every key of it is 401 and every share slug of its decks
 * 404; within a minute a scan of both tables finds nothing of it, and the other accounts' counts and
 * likes are right.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDeckCode } from '#rules/deck-code.ts';
import { ACCOUNTS, DECKS } from '#store/tables.ts';
import { call, code, createDeck, newOwner, type Owner } from '../support/api.ts';
import { THROTTLING } from '../support/fault-proxy.ts';
import { type Isolated, isolatedRuntime } from '../support/isolated.ts';
import { settled } from '../support/settle.ts';
import { scanAll } from '../support/store.ts';

let store: Isolated;
beforeAll(async () => {
  store = await isolatedRuntime({ ACCESS_LOG_DELIVERY_MS: '100', STREAM_BATCH_WINDOW_MS: '300' });
}, 120_000);
afterAll(() => store?.close());

/** Every item of both tables (the store is this file's own: a few hundred items). */
const everything = async () => [...(await scanAll(DECKS)), ...(await scanAll(ACCOUNTS))];

/** The items (and view counts) that still name any of `marks` — in a key, an attribute name or a value. */
const remains = (items: Record<string, unknown>[], marks: string[]) =>
  items.filter((item) => {
    const text = JSON.stringify(item);
    return marks.some((m) => text.includes(m));
  });

/** An event an owner organizes (its deadline an hour ahead). */
const eventOf = async (o: Owner) =>
  (
    await call('POST', '/api/v1/events', {
      key: o.key,
      body: {
        name: 'Cup',
        format: 'standard',
        pool_date: '2026-11-01',
        decks_per_player: 1,
        deadline: new Date(Date.now() + 3_600_000).toISOString(),
      },
    })
  ).body.data as { event_id: string };
const likesOf = async (slug: string) => (await call('GET', `/api/v1/decks/${slug}`)).body?.data?.likes as number | undefined;
const exportedLikes = async (o: Owner) =>
  (await call('GET', `/api/v1/users/${o.userId}/export`, { key: o.key })).body.data.likes as string[];

describe('DELETE /api/v1/users/:user_id', () => {
  it('erases everything of the account, interrupted once and repeated; the others keep their counts', async () => {
    const [leaving, other, fan] = await Promise.all([newOwner(), newOwner(), newOwner()]);
    // A webhook of its own on every deck published (contract §13.5): its public decks below make deliveries under it
    // (to a port nothing listens on: each attempt fails, and is retried), all erased with it.
    const hook = await call('POST', `/api/v1/users/${leaving.userId}/webhooks`, {
      key: leaving.key,
      body: { url: 'http://127.0.0.1:9/gone', events: ['deck.published', 'deck.unpublished'] },
    });
    expect(hook.status, hook.text).toBe(201);
    // Its decks: public (tagged: search entries), unlisted, private; one changed twice (versions); two made with an Idempotency-Key.
    const made = [
      await createDeck(leaving, { visibility: 'public', tags: ['aggro', 'otk'] }),
      await createDeck(leaving, { visibility: 'public', deck_code: code('germany', 'japan', 3) }),
      await createDeck(leaving, { visibility: 'unlisted', deck_code: code('usa', 'britain', 1) }),
      await createDeck(leaving, { visibility: 'private', deck_code: code('japan', 'germany', 2) }),
    ].map((r) => r.body.data as { id: string; share_slug: string; version: number });
    for (const key of ['erase-me-1', 'erase-me-2'])
      expect(
        (
          await call('POST', leaving.decks, {
            key: leaving.key,
            body: { deck_code: code('britain', 'usa', 4), guide: { system: 'Tempo' } },
            headers: { 'idempotency-key': key },
          })
        ).status,
      ).toBe(201);
    const changed = made[0] as { id: string; version: number };
    for (const change of [{ tags: ['control'] }, { sort_order: 3 }])
      expect((await call('PATCH', `${leaving.decks}/${changed.id}`, { key: leaving.key, body: change })).status).toBe(200);
    // Keys: a second one made by the first, and a revoked one.
    const second = (
      await call('POST', `/api/v1/users/${leaving.userId}/keys`, { key: leaving.key, body: { scopes: ['decks:read'], label: 'script' } })
    ).body.data;
    const revoked = (await call('POST', `/api/v1/users/${leaving.userId}/keys`, { key: leaving.key, body: { scopes: ['decks:read'] } }))
      .body.data;
    expect((await call('DELETE', `/api/v1/users/${leaving.userId}/keys/${revoked.key_id}`, { key: leaving.key, body: {} })).status).toBe(
      200,
    );
    // Its collection (contract §12.3): in its export, and gone with the rest.
    const owned = { [parseDeckCode(code()).cards[0]?.card_id as string]: 7 };
    expect((await call('PUT', `/api/v1/users/${leaving.userId}/collection`, { key: leaving.key, body: { cards: owned } })).status).toBe(
      200,
    );
    expect((await call('GET', `/api/v1/users/${leaving.userId}/export`, { key: leaving.key })).body.data.collection).toEqual(owned);
    // Likes given: to another owner's public deck (liked by a fan too), and to its own. Likes received: the other owner's, the fan's.
    const theirs = (await createDeck(other, { visibility: 'public' })).body.data as { share_slug: string };
    const own = made[0] as { share_slug: string };
    for (const [who, slug] of [
      [leaving, theirs.share_slug],
      [fan, theirs.share_slug],
      [leaving, own.share_slug],
      [other, own.share_slug],
      [fan, made[2]?.share_slug],
    ] as const)
      expect((await call('PUT', `/api/v1/users/${who.userId}/likes/${slug}`, { key: who.key })).status).toBeLessThan(300);
    expect(
      await settled(
        () => likesOf(theirs.share_slug),
        (n) => n === 2,
      ),
    ).toBe(2);
    // An entry in another account's event: its lists name the account, and its mark is under the account's key.
    const event = await eventOf(other);
    const entered = await call('PUT', `/api/v1/events/${event.event_id}/entries/${leaving.userId}`, {
      key: leaving.key,
      body: { decks: [{ deck_code: code() }] },
    });
    expect(entered.status, entered.text).toBe(200);
    // An event it organizes, a fan's entry in it: the event goes with its organizer, the fan's entry with it.
    const organized = await eventOf(leaving);
    expect(
      (
        await call('PUT', `/api/v1/events/${organized.event_id}/entries/${fan.userId}`, {
          key: fan.key,
          body: { decks: [{ deck_code: code() }] },
        })
      ).status,
    ).toBe(200);
    // Views of its public deck (a count of its own, by slug).
    for (let i = 0; i < 3; i++) expect((await call('GET', `/api/v1/decks/${own.share_slug}`)).status).toBe(200);

    // Interrupted: the private deck's delete keeps failing (the store's 500), so the request answers 503.
    const victim = made[3] as { id: string };
    store.proxy.set('TransactWriteItems', { ...THROTTLING.internal, match: victim.id });
    const body = { confirm: leaving.userId };
    const first = await call('DELETE', `/api/v1/users/${leaving.userId}`, { key: leaving.key, body });
    expect(first.status).toBe(503);
    expect(first.body.error.code).toBe('service_unavailable');
    store.proxy.clear();

    // Repeated: it finishes. decks counts the account's decks when its erasure began (6).
    const repeat = await call('DELETE', `/api/v1/users/${leaving.userId}`, { key: leaving.key, body });
    expect(repeat.status).toBe(200);
    expect(repeat.body.data).toEqual({ user_id: leaving.userId, deleted: true, decks: 6 });
    const answeredAt = Date.now();

    // From the answer on: every key 401, every share slug 404.
    for (const key of [leaving.key, second.api_key]) expect((await call('GET', leaving.decks, { key })).status).toBe(401);
    for (const d of made) expect((await call('GET', `/api/v1/decks/${d.share_slug}`)).status).toBe(404);
    const again = await call('DELETE', `/api/v1/users/${leaving.userId}`, { key: leaving.key, body });
    expect(again.status).toBe(401);

    // Within a minute, nothing of it in either table: its user_id, its decks' ids and slugs, its keys' ids.
    const marks = [
      leaving.userId,
      leaving.keyId,
      second.key_id,
      revoked.key_id,
      organized.event_id,
      hook.body.data.webhook_id,
      ...made.flatMap((d) => [d.id, d.share_slug]),
    ];
    const left = await settled(
      async () => remains(await everything(), marks),
      (items) => items.length === 0,
      60_000,
    );
    expect(left).toEqual([]);
    console.log(`erasure: nothing of the account left ${Date.now() - answeredAt} ms after the answer`);

    // The others: the deck it liked counts the fan's like only; their likes of its decks are gone from their exports.
    expect(
      await settled(
        () => likesOf(theirs.share_slug),
        (n) => n === 1,
      ),
    ).toBe(1);
    expect(await exportedLikes(other)).toEqual([]);
    expect((await call('GET', `/api/v1/events/${event.event_id}/entries`, { key: other.key })).body.data).toEqual([]);
    expect((await call('GET', `/api/v1/events/${organized.event_id}`)).status).toBe(404);
    expect((await call('GET', `/api/v1/events/${organized.event_id}/entries/${fan.userId}`, { key: fan.key })).status).toBe(404);
    expect(await exportedLikes(fan)).toEqual([theirs.share_slug]);
  }, 120_000);
});
