/** Each owner endpoint's success path, with the contract's exact shapes. */
import { describe, expect, it } from 'vitest';
import { call, code, createDeck, deckable, newOwner } from '../support/api.ts';

const OWNER_DECK_KEYS = [
  'id',
  'name',
  'main_faction',
  'ally_faction',
  'archetype',
  'deck_code',
  'cards_snapshot',
  'tags',
  'visibility',
  'sort_order',
  'share_slug',
  'guide',
  'archive',
  'display',
  'views',
  'likes',
  'created_at',
  'updated_at',
  'version',
  'stats',
  'legality',
].sort();

describe('create', () => {
  it('201 with the owner deck, a Location header and ETag, derived fields from the code', async () => {
    const owner = await newOwner();
    const deckCode = code('japan', 'anzac', 3);
    const featured = deckable('japan')[3]?.card_id;
    const r = await call('POST', owner.decks, {
      key: owner.key,
      body: {
        deck_code: ` ${deckCode} `,
        guide: { system: 'Ramp', description: 'slow', core_cards: [featured] },
        tags: ['Aggro', 'aggro ', 'OTK'],
        visibility: 'unlisted',
        featured_card_id: featured,
        card_back_id: 'gold_back',
        sort_order: 2,
      },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('x-request-id')).toBeTruthy();
    const deck = r.body.data;
    expect(Object.keys(deck).sort()).toEqual(OWNER_DECK_KEYS);
    expect(r.body.meta).toEqual({ api_version: 'v1' });
    expect(r.headers.get('location')).toBe(`${owner.decks}/${deck.id}`);
    expect(r.headers.get('etag')).toBe('"1"');
    expect(deck).toMatchObject({
      name: 'Japan / ANZAC',
      main_faction: 'japan',
      ally_faction: 'anzac',
      deck_code: deckCode,
      tags: ['aggro', 'otk'],
      visibility: 'unlisted',
      sort_order: 2,
      views: 0,
      likes: 0,
      version: 1,
      guide: { system: 'Ramp', description: 'slow', core_cards: [featured], reserve_recommendations: [] },
      archive: {
        key_components: { enabled: false, items: [] },
        alternatives: { enabled: false, items: [] },
        chart_settings: { otkConfig: { items: [] } },
      },
      display: { featured_card_id: featured, card_back_id: 'gold_back' },
    });
    expect(deck.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(deck.share_slug).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(deck.cards_snapshot.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(39);
    const ids = deck.cards_snapshot.map((c: { card_id: string }) => c.card_id);
    expect(ids).toEqual([...ids].sort());
    expect(deck.created_at).toBe(deck.updated_at);
  });
});

describe('read', () => {
  it('200 with the same deck and its version as ETag; unknown or malformed ids are 404 deck_not_found', async () => {
    const owner = await newOwner();
    const created = (await createDeck(owner)).body.data;
    const r = await call('GET', `${owner.decks}/${created.id}`, { key: owner.key });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(created);
    expect(r.headers.get('etag')).toBe('"1"');
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const missing = await call('GET', `${owner.decks}/${id}`, { key: owner.key });
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('deck_not_found');
    }
  });
});

describe('list', () => {
  it('orders by sort_order, then most recently updated; items omit guide.description and archive; pages with a cursor', async () => {
    const owner = await newOwner();
    const a = (await createDeck(owner, { sort_order: 1 })).body.data;
    const b = (await createDeck(owner, { sort_order: 0, guide: { system: 'B', description: 'long text' } })).body.data;
    const c = (await createDeck(owner, { sort_order: 1 })).body.data;
    // Touch a: it becomes the most recently updated of sort_order 1.
    await new Promise((r) => setTimeout(r, 5));
    expect((await call('PATCH', `${owner.decks}/${a.id}`, { key: owner.key, body: { tags: ['touched'] } })).status).toBe(200);

    const all = await call('GET', owner.decks, { key: owner.key });
    expect(all.status).toBe(200);
    expect(all.body.data.map((d: { id: string }) => d.id)).toEqual([b.id, a.id, c.id]);
    expect(all.body.meta).toEqual({ api_version: 'v1', page: 1, limit: 50, has_more: false, next_cursor: null });
    const item = all.body.data[0];
    expect(item.archive).toBeUndefined();
    expect(item.guide).toEqual({ system: 'B', core_cards: [], reserve_recommendations: [] });
    expect(Object.keys(item).sort()).toEqual(OWNER_DECK_KEYS.filter((k) => !['archetype', 'archive', 'stats', 'legality'].includes(k)));

    const p1 = await call('GET', `${owner.decks}?limit=2`, { key: owner.key });
    expect(p1.body.meta).toMatchObject({ page: 1, limit: 2, has_more: true });
    const p2 = await call('GET', `${owner.decks}?limit=2&cursor=${p1.body.meta.next_cursor}`, { key: owner.key });
    expect(p2.body.meta).toMatchObject({ page: 2, limit: 2, has_more: false, next_cursor: null });
    expect([...p1.body.data, ...p2.body.data].map((d: { id: string }) => d.id)).toEqual([b.id, a.id, c.id]);
  });

  it('limit and cursor are checked: 400 invalid_parameter', async () => {
    const owner = await newOwner();
    for (const q of ['limit=0', 'limit=101', 'limit=x', 'cursor=nonsense', `cursor=${Buffer.from('[2,"x","y"]').toString('base64url')}`]) {
      const r = await call('GET', `${owner.decks}?${q}`, { key: owner.key });
      expect(r.status, q).toBe(400);
      expect(r.body.error.code).toBe('invalid_parameter');
    }
    expect((await call('GET', `${owner.decks}?limit=100`, { key: owner.key })).status).toBe(200);
  });
});

describe('update', () => {
  it('200 with the changed deck, version and ETag grown by one; guide replaced whole', async () => {
    const owner = await newOwner();
    const created = (await createDeck(owner, { guide: { system: 'Old', description: 'keep?' }, tags: ['a'] })).body.data;
    const r = await call('PATCH', `${owner.decks}/${created.id}`, {
      key: owner.key,
      body: { guide: { system: 'New' }, visibility: 'public' },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ version: 2, visibility: 'public', tags: ['a'], guide: { system: 'New', description: '' } });
    expect(r.headers.get('etag')).toBe('"2"');
    expect(r.body.data.updated_at >= created.updated_at).toBe(true);
    expect((await call('GET', `${owner.decks}/${created.id}`, { key: owner.key })).body.data).toEqual(r.body.data);
  });

  it('a new deck code re-derives name, factions and snapshot', async () => {
    const owner = await newOwner();
    const created = (await createDeck(owner)).body.data;
    const r = await call('PATCH', `${owner.decks}/${created.id}`, { key: owner.key, body: { deck_code: code('germany', 'italy') } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      name: 'Germany / Italy',
      main_faction: 'germany',
      ally_faction: 'italy',
      deck_code: code('germany', 'italy'),
    });
    expect(r.body.data.cards_snapshot).not.toEqual(created.cards_snapshot);
  });

  it('a PATCH that changes nothing (values as they are, a tag as it normalises) keeps version, ETag and updated_at', async () => {
    const owner = await newOwner();
    const created = (await createDeck(owner, { tags: ['aggro'], visibility: 'public', sort_order: 3 })).body.data;
    for (const body of [{ sort_order: 3 }, { tags: [' Aggro '] }, { visibility: 'public', deck_code: created.deck_code }]) {
      const r = await call('PATCH', `${owner.decks}/${created.id}`, { key: owner.key, body, headers: { 'if-match': '"1"' } });
      expect([r.status, r.headers.get('etag')]).toEqual([200, '"1"']);
      expect(r.body.data).toEqual((await call('GET', `${owner.decks}/${created.id}`, { key: owner.key })).body.data);
      expect([r.body.data.version, r.body.data.updated_at]).toEqual([1, created.updated_at]);
    }
    // Still judged as a PATCH is: a value that breaks a rule is 422 even when nothing would change otherwise.
    const bad = await call('PATCH', `${owner.decks}/${created.id}`, { key: owner.key, body: { sort_order: 3, tags: [''] } });
    expect(bad.status).toBe(422);
    // A change after them is version 2.
    const changed = await call('PATCH', `${owner.decks}/${created.id}`, { key: owner.key, body: { sort_order: 4 } });
    expect([changed.body.data.version, changed.headers.get('etag')]).toEqual([2, '"2"']);
  });
});

describe('validate', () => {
  it('200 { valid: true, deck } with the normalised deck, and writes nothing', async () => {
    const owner = await newOwner();
    const r = await call('POST', `${owner.decks}/validate`, {
      key: owner.key,
      body: { deck_code: ` ${code()}`, guide: { system: 'x' }, tags: ['B', 'b'] },
    });
    expect(r.status).toBe(200);
    expect(r.body.data.valid).toBe(true);
    expect(r.body.data.deck).toMatchObject({
      deck_code: code(),
      name: 'Soviet Union / United States',
      tags: ['b'],
      visibility: 'private',
      sort_order: 0,
    });
    expect(r.body.data.deck.archive.alternatives).toEqual({ enabled: false, items: [] });
    expect((await call('GET', owner.decks, { key: owner.key })).body.data).toEqual([]);
  });
});

describe('replace', () => {
  it('200 with the new code and derived fields; nothing written', async () => {
    const owner = await newOwner();
    const deckCode = code('soviet', 'usa', 0, 8);
    const [out] = deckable('soviet');
    const spare = deckable('soviet').at(-1);
    const r = await call('POST', `${owner.decks}/replace`, {
      key: owner.key,
      body: { deck_code: deckCode, replacements: [{ remove_card_id: out?.card_id, add_card_id: spare?.card_id, count: 1 }] },
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data).sort()).toEqual(['ally_faction', 'cards_snapshot', 'deck_code', 'main_faction', 'name']);
    expect(r.body.data.deck_code).not.toBe(deckCode);
    const snapshot = new Map(r.body.data.cards_snapshot.map((c: { card_id: string; count: number }) => [c.card_id, c.count]));
    expect(snapshot.get(spare?.card_id)).toBe(1);
    expect((await call('GET', owner.decks, { key: owner.key })).body.data).toEqual([]);
  });

  it('422 when the result breaks a rule', async () => {
    const owner = await newOwner();
    const [soviet] = deckable('soviet');
    const usa = deckable('usa').at(-1);
    const r = await call('POST', `${owner.decks}/replace`, {
      key: owner.key,
      body: { deck_code: code(), replacements: [{ remove_card_id: soviet?.card_id, add_card_id: usa?.card_id, count: 1 }] },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.details).toEqual([{ path: 'deck_code', code: 'ally_limit', message: expect.any(String) }]);
  });
});

describe('delete', () => {
  it('200 { id, deleted: true }, then 404', async () => {
    const owner = await newOwner();
    const { id } = (await createDeck(owner)).body.data;
    const r = await call('DELETE', `${owner.decks}/${id}`, { key: owner.key, body: {} });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { id, deleted: true }, meta: { api_version: 'v1' } });
    expect((await call('GET', `${owner.decks}/${id}`, { key: owner.key })).status).toBe(404);
    const again = await call('DELETE', `${owner.decks}/${id}`, { key: owner.key, body: {} });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('deck_not_found');
  });

  it('missing body 400 invalid_json, {"a":1} 422 must_be_empty_object, non-object 400', async () => {
    const owner = await newOwner();
    const { id } = (await createDeck(owner)).body.data;
    const path = `${owner.decks}/${id}`;
    const none = await call('DELETE', path, { key: owner.key });
    expect([none.status, none.body.error.code]).toEqual([400, 'invalid_json']);
    const array = await call('DELETE', path, { key: owner.key, body: [] });
    expect([array.status, array.body.error.code]).toEqual([400, 'invalid_json']);
    const extra = await call('DELETE', path, { key: owner.key, body: { a: 1 } });
    expect(extra.status).toBe(422);
    expect(extra.body.error).toMatchObject({ code: 'validation_failed', details: [{ path: 'a', code: 'must_be_empty_object' }] });
    expect((await call('GET', path, { key: owner.key })).status).toBe(200);
  });
});
