/** Optimistic concurrency: parallel PATCHes never lose an update; If-Match guards a version. */
import { describe, expect, it } from 'vitest';
import { getDeck } from '#store/decks.ts';
import { foldDeck } from '#store/folds.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { call, createDeck, newOwner } from '../support/api.ts';

describe('concurrent writes', () => {
  it('20 parallel PATCHes of one deck all succeed, the version counts each, and no field update is lost', async () => {
    const owner = await newOwner();
    const { id } = (await createDeck(owner)).body.data;
    const path = `${owner.decks}/${id}`;
    // Requests alternate between two fields, each with its own value — none the deck's own (sort_order 0):
    // a PATCH that changes nothing is no write and no version.
    const bodies: Record<string, unknown>[] = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0 ? { sort_order: i + 1 } : { card_back_id: `back_${i}` },
    );
    const replies = await Promise.all(bodies.map((body) => call('PATCH', path, { key: owner.key, body })));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));

    // The writes form one chain, versions 2..21: each saw the one before it and changed only its own field.
    const byVersion = new Map(replies.map((r, i) => [r.body.data.version as number, { body: bodies[i] ?? {}, deck: r.body.data }]));
    expect([...byVersion.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    for (let v = 3; v <= 21; v++) {
      const prev = byVersion.get(v - 1)?.deck;
      const { body, deck } = byVersion.get(v) ?? { body: {}, deck: undefined };
      expect(deck.sort_order).toBe('sort_order' in body ? body.sort_order : prev.sort_order);
      expect(deck.display.card_back_id).toBe('card_back_id' in body ? body.card_back_id : prev.display.card_back_id);
    }
    const final = (await call('GET', path, { key: owner.key })).body.data;
    expect(final).toEqual(byVersion.get(21)?.deck);
  });

  it('If-Match: the current version passes; a stale one is 412 and changes nothing', async () => {
    const owner = await newOwner();
    const { id } = (await createDeck(owner)).body.data;
    const path = `${owner.decks}/${id}`;
    const first = await call('PATCH', path, { key: owner.key, body: { tags: ['one'] }, headers: { 'if-match': '"1"' } });
    expect([first.status, first.headers.get('etag')]).toEqual([200, '"2"']);
    const stale = await call('PATCH', path, { key: owner.key, body: { tags: ['two'] }, headers: { 'if-match': '"1"' } });
    expect([stale.status, stale.body.error.code]).toEqual([412, 'precondition_failed']);
    const garbage = await call('PATCH', path, { key: owner.key, body: { tags: ['two'] }, headers: { 'if-match': 'soon' } });
    expect(garbage.status).toBe(412);
    const staleDelete = await call('DELETE', path, { key: owner.key, body: {}, headers: { 'if-match': '"1"' } });
    expect(staleDelete.status).toBe(412);
    const now = (await call('GET', path, { key: owner.key })).body.data;
    expect([now.version, now.tags]).toEqual([2, ['one']]);
    // If-Match compares strongly (RFC 9110 §13.1.1, contract §10.4): a weak tag of the very version never matches.
    for (const [method, body] of [
      ['PATCH', { tags: ['weak'] }],
      ['DELETE', {}],
      ['POST', {}],
    ] as const) {
      const at = method === 'POST' ? `${path}/versions/1/restore` : path;
      const weak = await call(method, at, { key: owner.key, body, headers: { 'if-match': 'W/"2"' } });
      expect([method, weak.status, weak.body.error?.code]).toEqual([method, 412, 'precondition_failed']);
    }
    expect((await call('GET', path, { key: owner.key })).body.data.version).toBe(2);
    // Opaque tags (RFC 9110 §8.8.3): "02" is another tag than "2"; a list matches when any of its tags does (§13.1.1).
    for (const other of ['"02"', '"2.0"', '" 2"', '"2", W/"2" x', '"9999" "2"'])
      expect([
        other,
        (await call('PATCH', path, { key: owner.key, body: { tags: ['x'] }, headers: { 'if-match': other } })).status,
      ]).toEqual([other, 412]);
    const listed = await call('PATCH', path, { key: owner.key, body: { tags: ['listed'] }, headers: { 'if-match': '"9999", W/"2", "2"' } });
    expect([listed.status, listed.body.data?.version]).toEqual([200, 3]);
    expect((await call('DELETE', path, { key: owner.key, body: {}, headers: { 'if-match': '"1","3"' } })).status).toBe(200);
  });

  it('parallel PATCHes with the same If-Match: exactly one wins, the rest are 412', async () => {
    const owner = await newOwner();
    const { id } = (await createDeck(owner)).body.data;
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        // Each a change (the deck's sort_order is 0): a PATCH that changes nothing would write nothing and pass.
        call('PATCH', `${owner.decks}/${id}`, { key: owner.key, body: { sort_order: i + 1 }, headers: { 'if-match': '"1"' } }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, ...Array(7).fill(412)]);
  });
});

describe('folds arriving out of order', () => {
  it('a late like fold from an older counter change never takes the deck and its search entries back', async () => {
    const owner = await newOwner();
    const tag = `late-fold-${Date.now()}`;
    const { id, share_slug } = (await createDeck(owner, { visibility: 'public', tags: [tag] })).body.data;
    const deck = (await getDeck(owner.userId, id)) as StoredDeck;
    // Two likes' folds, the newer (20th change: 20 likes) landing before the older (19th: 19 likes).
    await foldDeck(deck, { field: 'likes', value: 20, changes: 20 });
    await foldDeck(deck, { field: 'likes', value: 19, changes: 19 });
    expect(((await getDeck(owner.userId, id)) as StoredDeck).likes).toBe(20);
    expect((await call('GET', `/api/v1/decks/${share_slug}`)).body.data.likes).toBe(20);
    const listed = (await call('GET', `/api/v1/decks?tag=${tag}`)).body.data[0];
    expect(listed.likes).toBe(20);
    // A later change does move it back down (unlikes: 10 likes at the 30th change).
    await foldDeck(deck, { field: 'likes', value: 10, changes: 30 });
    expect((await call('GET', `/api/v1/decks?tag=${tag}`)).body.data[0].likes).toBe(10);
  });
});
