/**
 * Rotating the key that signs list cursors, without a deploy (contract §8.1: a cursor is the exact string
 * issued; issue: key rotation that works). The keys are an item of the store (lib/store/cursor-keys.ts),
 * made by the first cursor a function signs, rotated with `deckctl cursor-key rotate`; functions read
 * them again at most CURSOR_KEY_TTL_MS after their last read (here: at once). A cursor issued before a
 * rotation still works after it; after the next rotation, its key is retired and it is 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDeck, newOwner, type Owner } from '../support/api.ts';
import { deckctl } from '../support/deckctl.ts';
import { type Isolated, isolatedRuntime } from '../support/isolated.ts';

let store: Isolated;
let owner: Owner;
beforeAll(async () => {
  store = await isolatedRuntime({ CURSOR_KEY_TTL_MS: '0' });
  owner = await newOwner();
  for (let i = 0; i < 3; i++) await createDeck(owner, { visibility: 'public', tags: ['rotated'] });
}, 120_000);
afterAll(() => store?.close());

/** A first page's cursor on each cursor route: search, the owner list, the card list. */
const cursors = async () => ({
  search: (await call('GET', '/api/v1/decks?tag=rotated&limit=1')).body.meta.next_cursor as string,
  owner: (await call('GET', `${owner.decks}?limit=1`, { key: owner.key })).body.meta.next_cursor as string,
  cards: (await call('GET', '/api/v1/cards?limit=1')).body.meta.next_cursor as string,
});
const follow = (c: Awaited<ReturnType<typeof cursors>>) =>
  Promise.all([
    call('GET', `/api/v1/decks?tag=rotated&limit=1&cursor=${encodeURIComponent(c.search)}`),
    call('GET', `${owner.decks}?limit=1&cursor=${encodeURIComponent(c.owner)}`, { key: owner.key }),
    call('GET', `/api/v1/cards?limit=1&cursor=${encodeURIComponent(c.cards)}`),
  ]).then((replies) => replies.map((r) => r.status));
const keyOf = (cursor: string) => cursor.split('.')[0];
const rotate = async (...extra: string[]) => {
  const r = await deckctl(['cursor-key', 'rotate', '--json', ...extra]);
  return { ...r, answer: r.status === 0 ? (JSON.parse(r.stdout) as { current: string; kept: string[]; retired: string[] }) : undefined };
};

describe('cursor keys rotate without a deploy', () => {
  it('a cursor issued before a rotation works after it; after the next, its key is retired and it is 400', async () => {
    const before = await cursors();
    expect(new Set(Object.values(before).map(keyOf)).size).toBe(1);
    expect(await follow(before)).toEqual([200, 200, 200]);

    // The store's first rotation is never refused (contract §10.4): it retires nothing, however new the
    // key it keeps (made a moment ago, by the first cursor).
    const first = await rotate();
    expect(first.answer).toEqual({ current: expect.any(String), kept: [keyOf(before.search)], retired: [] });
    // A second one this soon after it would retire a key functions may still sign with: refused without --force.
    const refused = await rotate();
    expect([refused.status, refused.stderr]).toEqual([1, expect.stringMatching(/last rotation .* --force/s)]);
    expect(await follow(before)).toEqual([200, 200, 200]);
    const after = await cursors();
    expect(keyOf(after.search)).toBe(first.answer?.current);

    const second = await rotate('--force');
    expect(second.answer).toEqual({ current: expect.any(String), kept: [first.answer?.current], retired: [keyOf(before.search)] });
    const retired = await Promise.all([
      call('GET', `/api/v1/decks?tag=rotated&limit=1&cursor=${encodeURIComponent(before.search)}`),
      call('GET', `/api/v1/cards?limit=1&cursor=${encodeURIComponent(before.cards)}`),
    ]);
    for (const r of retired) expect([r.status, r.body.error.code]).toEqual([400, 'invalid_parameter']);
    // The key kept still opens what it signed.
    expect(await follow(after)).toEqual([200, 200, 200]);
  }, 60_000);
});
