/** Every owner route × every way a key can be wrong, and one owner against another's decks (BOLA). */
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SCOPES } from '#auth/keys.ts';
import { ROUTES } from '#routes';
import { revokeKey } from '#store/accounts.ts';
import { baseUrl, call, code, createDeck, newOwner, type Owner } from '../support/api.ts';

const ownerRoutes = ROUTES.filter((r) => 'scope' in r);

/** An event of an owner's (its deadline a day ahead). */
async function eventOf(o: Owner): Promise<string> {
  const body = {
    name: 'Cup',
    format: 'standard',
    pool_date: '2026-11-01',
    decks_per_player: 1,
    deadline: new Date(Date.now() + 86_400_000).toISOString(),
  };
  const made = await call('POST', '/api/v1/events', { key: o.key, body });
  expect(made.status).toBe(201);
  return made.body.data.event_id as string;
}

/** A concrete request for a route, as `owner` would make it against `deckId` (and an event of theirs). */
function request(route: (typeof ownerRoutes)[number], userId: string, deckId: string, eventId = '6c1f0e7a-2b9d-4f3e-8a51-0d4c7b2e9f18') {
  const path = route.path.replace('{user_id}', userId).replace('{deck_id}', deckId).replace('{event_id}', eventId);
  const body =
    route.method === 'DELETE'
      ? {}
      : route.name === 'replaceCards'
        ? { deck_code: code(), replacements: [{ remove_card_id: 'aa', add_card_id: 'ab', count: 1 }] }
        : 'body' in route
          ? { deck_code: code(), guide: { system: 'x' } }
          : undefined;
  return { method: route.method, path, body };
}

describe('auth matrix', async () => {
  const owner = await newOwner();
  const other = await newOwner();
  const revoked = await newOwner();
  await revokeKey(revoked.keyId);
  const deckId = (await createDeck(owner)).body.data.id;
  const eventId = await eventOf(owner);
  const malformed = ['Bearer', 'Bearer nonsense', `Basic ${owner.key}`, `Bearer ${owner.key.slice(0, -1)}`, `Bearer ${owner.key}x`];
  const unknown = `dlk_${'A'.repeat(16)}_${'b'.repeat(40)}`;
  const wrongSecret = `${owner.key.slice(0, 21)}${'z'.repeat(40)}`;

  it.each(ownerRoutes.map((r) => [r.name, r] as const))('%s', async (_name, route) => {
    const { method, path, body } = request(route, owner.userId, deckId, eventId);
    const expect401 = async (headers: Record<string, string>) => {
      const r = await call(method, path, { headers, body });
      expect(r.status, JSON.stringify(headers)).toBe(401);
      expect(r.body.error.code).toBe('unauthorized');
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
    };
    await expect401({});
    for (const authorization of malformed) await expect401({ authorization });
    await expect401({ authorization: `Bearer ${unknown}` });
    await expect401({ authorization: `Bearer ${wrongSecret}` });
    await expect401({ authorization: `Bearer ${revoked.key}` });

    for (const missing of SCOPES.filter((s) => s === route.scope)) {
      const limited = await newOwner(SCOPES.filter((s) => s !== missing));
      const mine = request(route, limited.userId, deckId, eventId);
      const r = await call(mine.method, mine.path, { key: limited.key, body: mine.body });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('insufficient_scope');
    }

    // A path that names an account: another's key is user_mismatch. One that names none acts for the key's account
    // (an event's creation), or checks the event is that account's (its change: not_organizer).
    const mismatch = await call(method, path, { key: other.key, body });
    if (route.path.includes('{user_id}')) expect([mismatch.status, mismatch.body.error.code]).toEqual([403, 'user_mismatch']);
    else if (route.name === 'updateEvent') expect([mismatch.status, mismatch.body.error.code]).toEqual([403, 'not_organizer']);
    else expect(route.name).toBe('createEvent');
  });

  it('delete needs decks:delete explicitly: read and write together do not do', async () => {
    const rw = await newOwner(['decks:read', 'decks:write']);
    const { id } = (await createDeck(rw)).body.data;
    const r = await call('DELETE', `${rw.decks}/${id}`, { key: rw.key, body: {} });
    expect([r.status, r.body.error.code]).toEqual([403, 'insufficient_scope']);
  });

  it('two Authorization headers, or two credentials in one, are 401 — even when each is the right key (contract §10.4)', async () => {
    const o = await newOwner();
    /** A GET of the owner's decks with these Authorization lines, sent as written (fetch would fold them into one). */
    const send = (lines: string[]) =>
      new Promise<{ status: number; code?: string }>((done, fail) => {
        const req = httpRequest(
          `${baseUrl()}${o.decks}`,
          { headers: { authorization: lines } as unknown as OutgoingHttpHeaders },
          (res) => {
            let text = '';
            res.on('data', (c) => {
              text += c;
            });
            res.on('end', () => done({ status: res.statusCode ?? 0, code: JSON.parse(text).error?.code }));
          },
        );
        req.on('error', fail);
        req.end();
      });
    expect(await send([`Bearer ${o.key}`])).toEqual({ status: 200, code: undefined });
    expect(await send([`Bearer ${o.key}`, `Bearer ${o.key}`])).toEqual({ status: 401, code: 'unauthorized' });
    expect(await send([`Bearer ${o.key}`, 'Bearer dlk_other'])).toEqual({ status: 401, code: 'unauthorized' });
    expect(await send([`Bearer ${o.key}, Bearer ${o.key}`])).toEqual({ status: 401, code: 'unauthorized' });
    expect(await send([`Bearer ${o.key} ${o.key}`])).toEqual({ status: 401, code: 'unauthorized' });
  });

  it('revocation takes effect at once', async () => {
    const o = await newOwner();
    expect((await call('GET', o.decks, { key: o.key })).status).toBe(200);
    await revokeKey(o.keyId);
    expect((await call('GET', o.decks, { key: o.key })).status).toBe(401);
  });
});

describe("one owner can never touch another owner's decks", async () => {
  const a: Owner = await newOwner();
  const b: Owner = await newOwner();
  const bDeck = (await createDeck(b)).body.data;

  it("A, on A's own paths, cannot read, change or delete B's deck: it does not exist there", async () => {
    const path = `${a.decks}/${bDeck.id}`;
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { tags: ['mine'] }],
      ['DELETE', {}],
    ] as const) {
      const r = await call(method, path, { key: a.key, body });
      expect([method, r.status, r.body.error.code]).toEqual([method, 404, 'deck_not_found']);
    }
    expect((await call('GET', a.decks, { key: a.key })).body.data).toEqual([]);
  });

  it("A, on B's paths, is refused for every route", async () => {
    const bEvent = await eventOf(b);
    for (const route of ownerRoutes.filter((r) => r.name !== 'createEvent')) {
      const { method, path, body } = request(route, b.userId, bDeck.id, bEvent);
      const r = await call(method, path, { key: a.key, body });
      const refusal = route.path.includes('{user_id}') ? 'user_mismatch' : 'not_organizer';
      expect([route.name, r.status, r.body.error.code]).toEqual([route.name, 403, refusal]);
    }
  });

  it("B's deck is untouched", async () => {
    const r = await call('GET', `${b.decks}/${bDeck.id}`, { key: b.key });
    expect(r.body.data).toEqual(bDeck);
  });
});
