/**
 * A deck's history (contract §9.2): versions kept by every change, listed newest first by cursor, read
 * whole, restored under today's rules; the public history without the private past; versions dropped
 * past the last 100 (their unchanged texts kept where a kept version reads them) and purged with the deck.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardChanges } from '#rules/card-changes.ts';
import { changedFields } from '#rules/changed-fields.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { documentClient } from '#store/client.ts';
import { getDeck } from '#store/decks.ts';
import { versionItem, versionsPk } from '#store/items/version.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { call, code, createDeck, details, newOwner, type Owner, type Reply } from '../support/api.ts';
import { settled } from '../support/settle.ts';

/** An item of a history list, as answered. */
interface Listed {
  version: number;
  updated_at: string;
  deck_code: string;
  visibility?: string;
  changed: string[];
  cards: { added: unknown[]; removed: unknown[] };
}

const patch = (owner: Owner, id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call('PATCH', `${owner.decks}/${id}`, { key: owner.key, body, headers });
const history = (owner: Owner, id: string, query = '') => call('GET', `${owner.decks}/${id}/versions${query}`, { key: owner.key });
const restore = (owner: Owner, id: string, version: number | string, headers: Record<string, string> = {}, body: unknown = {}) =>
  call('POST', `${owner.decks}/${id}/versions/${version}/restore`, { key: owner.key, body, headers });

/** Every item of a deck's history, walked by cursor (each page checked: has_more exactly when a cursor comes). */
async function walk(path: (query: string) => Promise<Reply>, limit: number) {
  const items: Listed[] = [];
  const pages: number[][] = [];
  let cursor: string | null = null;
  do {
    const r = await path(`?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(r.status, r.text).toBe(200);
    items.push(...r.body.data);
    pages.push(r.body.data.map((v: { version: number }) => v.version));
    cursor = r.body.meta.next_cursor;
    expect(r.body.meta.has_more).toBe(cursor !== null);
    expect(r.body.meta.page).toBe(pages.length);
  } while (cursor);
  return { items, pages };
}

const versionItems = async (owner: Owner, deckId: string) =>
  (
    await documentClient().send(
      new QueryCommand({
        TableName: tableName(DECKS),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': versionsPk(owner.userId, deckId) },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

describe('owner history', () => {
  it('create is version 1; each change keeps one, newest first, with its changed fields and card changes; a PATCH that changes nothing keeps none', async () => {
    const owner = await newOwner();
    const first = code('soviet', 'usa', 0);
    const second = code('soviet', 'usa', 3, 9);
    const deck = (await createDeck(owner, { deck_code: first, tags: ['aggro'] })).body.data;
    expect((await patch(owner, deck.id, { tags: ['aggro', 'tempo'], sort_order: 4 })).status).toBe(200);
    expect((await patch(owner, deck.id, { deck_code: second })).status).toBe(200);
    const same = await patch(owner, deck.id, { sort_order: 4 });
    expect([same.status, same.body.data.version]).toEqual([200, 3]);
    const r = await history(owner, deck.id);
    expect(r.status).toBe(200);
    expect(r.body.data.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    const [v3, v2, v1] = r.body.data;
    expect(v1).toEqual({
      version: 1,
      updated_at: deck.updated_at,
      deck_code: first,
      name: deck.name,
      main_faction: 'soviet',
      ally_faction: 'usa',
      visibility: 'private',
      changed: [],
      cards: { added: [], removed: [] },
    });
    expect([v2.changed, v2.cards]).toEqual([['tags', 'sort_order'], { added: [], removed: [] }]);
    const { added, removed } = cardChanges(parseDeckCode(first).cards, parseDeckCode(second).cards);
    expect(added.length).toBeGreaterThan(0);
    expect([v3.changed, v3.cards, v3.deck_code]).toEqual([['deck_code'], { added, removed }, second]);
    expect(r.body.meta).toMatchObject({ page: 1, limit: 20, has_more: false, next_cursor: null });
  });

  it('one version read whole: the owner deck as it was (guide and archive included), without views and likes; unknown versions and decks 404', async () => {
    const owner = await newOwner();
    const deck = (await createDeck(owner, { guide: { system: 'Tempo', description: 'the first plan' }, tags: ['one'] })).body.data;
    await patch(owner, deck.id, { guide: { system: 'Control', description: 'the second plan' }, tags: ['two'] });
    const r = await call('GET', `${owner.decks}/${deck.id}/versions/1`, { key: owner.key });
    expect(r.status).toBe(200);
    const { views: _v, likes: _l, ...asCreated } = deck;
    expect(r.body.data).toEqual(asCreated);
    const two = (await call('GET', `${owner.decks}/${deck.id}/versions/2`, { key: owner.key })).body.data;
    expect([two.version, two.guide.description, two.tags]).toEqual([2, 'the second plan', ['two']]);
    for (const version of ['3', '0', '01', 'x', '99999999999']) {
      const missing = await call('GET', `${owner.decks}/${deck.id}/versions/${version}`, { key: owner.key });
      expect([missing.status, missing.body.error.code], version).toEqual([404, 'version_not_found']);
    }
    const stranger = await newOwner();
    for (const path of [
      `/api/v1/users/${stranger.userId}/decks/${deck.id}/versions/1`,
      `/api/v1/users/${stranger.userId}/decks/${deck.id}/versions`,
    ]) {
      const r404 = await call('GET', path, { key: stranger.key });
      expect([r404.status, r404.body.error.code]).toEqual([404, 'deck_not_found']);
    }
  });

  it('pages by cursor, newest first, to the end; a cursor continues only the list it came from', async () => {
    const owner = await newOwner();
    const deck = (await createDeck(owner)).body.data;
    const other = (await createDeck(owner)).body.data;
    for (let i = 1; i <= 6; i++) expect((await patch(owner, deck.id, { sort_order: i })).status).toBe(200);
    const { pages } = await walk((q) => history(owner, deck.id, q), 3);
    expect(pages).toEqual([[7, 6, 5], [4, 3, 2], [1]]);
    const first = await history(owner, deck.id, '?limit=3');
    const cursor = encodeURIComponent(first.body.meta.next_cursor);
    const elsewhere = await history(owner, other.id, `?limit=3&cursor=${cursor}`);
    expect([elsewhere.status, elsewhere.body.error.code]).toEqual([400, 'invalid_parameter']);
    const forged = await history(owner, deck.id, `?cursor=${cursor}x`);
    expect(forged.status).toBe(400);
    const bad = await history(owner, deck.id, '?limit=101');
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_parameter']);
  });

  it('changed and cards agree with a model over random PATCH sequences', async () => {
    const owner = await newOwner();
    const codes = [code('soviet', 'usa', 0), code('soviet', 'usa', 2, 8), code('soviet', 'usa', 5, 12), code('germany', 'italy', 1)];
    const change = fc.record(
      {
        deck_code: fc.constantFrom(...codes),
        tags: fc.constantFrom([], ['aggro'], ['aggro', 'tempo']),
        visibility: fc.constantFrom('private', 'public', 'unlisted'),
        sort_order: fc.integer({ min: 0, max: 2 }),
        guide: fc.constantFrom({ system: 'Tempo' }, { system: 'Tempo', description: 'a plan' }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          change.filter((c) => Object.keys(c).length > 0),
          { minLength: 1, maxLength: 5 },
        ),
        async (changes) => {
          const created = (await createDeck(owner, { deck_code: codes[0] })).body.data;
          const states = [created];
          for (const body of changes) {
            const r = await patch(owner, created.id, body);
            expect(r.status, r.text).toBe(200);
            if (r.body.data.version !== states.at(-1).version) states.push(r.body.data);
          }
          const listed = (await history(owner, created.id, '?limit=100')).body.data.reverse();
          expect(listed.map((v: { version: number }) => v.version)).toEqual(states.map((s) => s.version));
          listed.forEach((v: Listed, i: number) => {
            const before = states[i - 1];
            const now = states[i];
            expect(v.changed).toEqual(before ? changedFields(before, now) : []);
            const cards = before ? cardChanges(parseDeckCode(before.deck_code).cards, parseDeckCode(now.deck_code).cards) : undefined;
            expect(v.cards).toEqual(cards ? { added: cards.added, removed: cards.removed } : { added: [], removed: [] });
            expect([v.deck_code, v.visibility, v.updated_at]).toEqual([now.deck_code, now.visibility, now.updated_at]);
          });
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe('restore', () => {
  it('makes the writable fields what they were, as a new version; If-Match stale is 412 and fresh is 200; nothing to change keeps the version', async () => {
    const owner = await newOwner();
    const first = code('soviet', 'usa', 0);
    const deck = (await createDeck(owner, { deck_code: first, guide: { system: 'Tempo', description: 'old plan' }, tags: ['old'] })).body
      .data;
    await patch(owner, deck.id, {
      deck_code: code('soviet', 'usa', 4, 10),
      guide: { system: 'Control' },
      tags: ['new'],
      visibility: 'public',
    });
    const stale = await restore(owner, deck.id, 1, { 'if-match': '"1"' });
    expect([stale.status, stale.body.error.code]).toEqual([412, 'precondition_failed']);
    const r = await restore(owner, deck.id, 1, { 'if-match': '"2"' });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('etag')).toBe('"3"');
    expect(r.body.data).toMatchObject({
      version: 3,
      deck_code: first,
      tags: ['old'],
      visibility: 'private',
      guide: { system: 'Tempo', description: 'old plan' },
    });
    expect(r.body.data.archive).toEqual(deck.archive);
    const listed = (await history(owner, deck.id)).body.data[0];
    expect([listed.version, listed.changed]).toEqual([3, ['deck_code', 'guide', 'tags', 'visibility']]);
    // The deck is at version 1's content already: a restore of it changes nothing and keeps no version.
    const again = await restore(owner, deck.id, 1);
    expect([again.status, again.body.data.version]).toEqual([200, 3]);
    expect((await history(owner, deck.id)).body.data.length).toBe(3);
  });

  it('a body other than {} is 422; an unknown version 404 version_not_found; an unknown deck 404 deck_not_found', async () => {
    const owner = await newOwner();
    const deck = (await createDeck(owner)).body.data;
    const body = await restore(owner, deck.id, 1, {}, { version: 1 });
    expect([body.status, details(body)]).toEqual([422, [['version', 'must_be_empty_object']]]);
    const missing = await restore(owner, deck.id, 5);
    expect([missing.status, missing.body.error.code]).toEqual([404, 'version_not_found']);
    const gone = await restore(owner, '00000000-0000-4000-8000-000000000000', 1);
    expect([gone.status, gone.body.error.code]).toEqual([404, 'deck_not_found']);
    // No body at all is 400 invalid_json, as a DELETE without one (contract §10.4), with or without a Content-Type.
    for (const headers of [{}, { 'content-type': 'application/json' }] as Record<string, string>[]) {
      const bare = await call('POST', `${owner.decks}/${deck.id}/versions/1/restore`, { key: owner.key, headers });
      expect([bare.status, bare.body.error.code]).toEqual([400, 'invalid_json']);
    }
  });

  it('a version that no longer passes today’s rules is 422 with every failing rule, and nothing is written', async () => {
    const owner = await newOwner();
    const deck = (await createDeck(owner)).body.data;
    await patch(owner, deck.id, { sort_order: 1 });
    // Version 1 as a catalogue or rule change since would leave it: a code with a card the catalogue no longer has.
    const stored = await getDeck(owner.userId, deck.id);
    if (!stored) throw new Error('no deck');
    const broken = withUnknownCard(stored.deck_code);
    const { item } = versionItem({ ...stored, version: 1, deck_code: broken, tags: ['x'.repeat(40)] }, undefined);
    await documentClient().send(new PutCommand({ TableName: tableName(DECKS), Item: item }));
    const r = await restore(owner, deck.id, 1);
    expect(r.status, r.text).toBe(422);
    expect(details(r)).toEqual(
      expect.arrayContaining([
        ['deck_code', 'unknown_card'],
        ['tags[0]', 'too_long'],
      ]),
    );
    expect((await getDeck(owner.userId, deck.id))?.version).toBe(2);
  });
});

/** A code whose first card is one the catalogue does not have (the rest as given). */
function withUnknownCard(deckCode: string): string {
  return deckCode.replace(/;([0-9A-Za-z]{2})/, ';zz');
}

describe('public history', () => {
  it('only versions made while public or unlisted, without visibility; changed limited to content; no change shown across a private stretch', async () => {
    const owner = await newOwner();
    const deck = (await createDeck(owner, { deck_code: code('soviet', 'usa', 0) })).body.data; // 1 private
    await patch(owner, deck.id, { deck_code: code('soviet', 'usa', 1) }); // 2 private
    await patch(owner, deck.id, { visibility: 'public', tags: ['seen'] }); // 3 public, after private
    await patch(owner, deck.id, { tags: ['seen', 'more'], sort_order: 3 }); // 4 public
    await patch(owner, deck.id, { visibility: 'unlisted', deck_code: code('soviet', 'usa', 2) }); // 5 unlisted
    await patch(owner, deck.id, { visibility: 'private', deck_code: code('soviet', 'usa', 3) }); // 6 private
    const hidden = await call('GET', `/api/v1/decks/${deck.share_slug}/versions`);
    expect([hidden.status, hidden.body.error.code]).toEqual([404, 'deck_not_found']);
    await patch(owner, deck.id, { visibility: 'public', deck_code: code('soviet', 'usa', 4) }); // 7 public, after private
    const { items, pages } = await walk((q) => call('GET', `/api/v1/decks/${deck.share_slug}/versions${q}`), 2);
    expect(pages).toEqual([
      [7, 5],
      [4, 3],
    ]);
    for (const v of items) expect(v).not.toHaveProperty('visibility');
    const [v7, v5, v4, v3] = items as [Listed, Listed, Listed, Listed];
    expect([v7.changed, v7.cards]).toEqual([[], { added: [], removed: [] }]);
    expect([v3.changed, v3.cards]).toEqual([[], { added: [], removed: [] }]);
    expect(v4.changed).toEqual(['tags']);
    expect(v5.changed).toEqual(['deck_code']);
    expect(v5.cards.added.length + v5.cards.removed.length).toBeGreaterThan(0);
    expect(v7.deck_code).toBe(code('soviet', 'usa', 4));
    const unknown = await call('GET', '/api/v1/decks/ZZZZZZZZZZZZ/versions');
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'deck_not_found']);
    // An owner's cursor does not continue the public list, nor the other way round.
    const ownerCursor = (await history(owner, deck.id, '?limit=1')).body.meta.next_cursor;
    const crossed = await call('GET', `/api/v1/decks/${deck.share_slug}/versions?cursor=${encodeURIComponent(ownerCursor)}`);
    expect([crossed.status, crossed.body.error.code]).toEqual([400, 'invalid_parameter']);
  });
});

describe('what is kept', () => {
  it('a 20,000-character description PATCHed 105 times: the last 100 versions listed, the description stored once, every kept version reads it', async () => {
    const owner = await newOwner();
    const description = 'd'.repeat(19_990) + 'ü'.repeat(10);
    const deck = (await createDeck(owner, { guide: { system: 'Tempo', description } })).body.data;
    for (let i = 1; i <= 105; i++) expect((await patch(owner, deck.id, { sort_order: i })).status).toBe(200);
    // The worker drops versions 1–6 (106 − 100); version 1 holds the description every kept one reads: it stays, retired.
    const items = await settled(
      () => versionItems(owner, deck.id),
      (all) => all.length === 101,
    );
    expect(items.length).toBe(101);
    const retired = items.filter((i) => i.retired);
    expect(retired.map((i) => i.version)).toEqual([1]);
    const holding = items.filter((i) => typeof i.description === 'string' && i.description.length > 0);
    expect(holding.map((i) => i.version)).toEqual([1]);
    const largest = Math.max(...items.filter((i) => i.version !== 1).map((i) => JSON.stringify(i).length));
    // The numbers the README and docs/data-model.md quote: every kept version but the holder is small.
    expect(largest).toBeLessThan(2_000);
    const { pages } = await walk((q) => history(owner, deck.id, q), 100);
    expect(pages.flat()).toEqual(Array.from({ length: 100 }, (_, i) => 106 - i));
    const oldest = await call('GET', `${owner.decks}/${deck.id}/versions/7`, { key: owner.key });
    expect([oldest.status, oldest.body.data.guide.description]).toEqual([200, description]);
    for (const dropped of [1, 6]) {
      const r = await call('GET', `${owner.decks}/${deck.id}/versions/${dropped}`, { key: owner.key });
      expect([r.status, r.body.error.code]).toEqual([404, 'version_not_found']);
    }
    // A new description is held by its own version; the old holder stays while the oldest kept version reads it.
    await patch(owner, deck.id, { guide: { system: 'Tempo', description: 'short now' } });
    const after = await settled(
      () => versionItems(owner, deck.id),
      (all) => all.length === 101 && all.some((i) => i.version === 107),
    );
    expect(after.filter((i) => i.retired).map((i) => i.version)).toEqual([1]);
    expect((await call('GET', `${owner.decks}/${deck.id}/versions/107`, { key: owner.key })).body.data.guide.description).toBe('short now');
  }, 60_000);

  it('a deleted deck’s versions go with it', async () => {
    const owner = await newOwner();
    const deck = (await createDeck(owner)).body.data;
    await patch(owner, deck.id, { sort_order: 1 });
    expect((await versionItems(owner, deck.id)).length).toBe(2);
    expect((await call('DELETE', `${owner.decks}/${deck.id}`, { key: owner.key, body: {} })).status).toBe(200);
    expect(
      (
        await settled(
          () => versionItems(owner, deck.id),
          (all) => all.length === 0,
        )
      ).length,
    ).toBe(0);
    const r = await history(owner, deck.id);
    expect([r.status, r.body.error.code]).toEqual([404, 'deck_not_found']);
  });
});
