/**
 * Which public decks a collection can build, and which are legal in a format (contract §12.3), on a runtime of its
 * own holding exactly the 500 public decks made here (made as players make them: scripts/bench/scale-library.ts over
 * the demo catalogue). `buildable_by` with `missing_max` 0 and 2, walked page by page, gives exactly the decks a
 * recount here says, each item what it still misses; each page reads at most search's budget of index items
 * (counted at the store, the page run in its function) and the key and the collection once; `format` likewise; no
 * key, a key without collection:read and another account's key — each its answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDeckCode } from '#rules/deck-code.ts';
import { countsAs } from '#rules/deck-rules.ts';
import type { FactionId } from '#rules/factions.ts';
import { atMost } from '#store/at-most.ts';
import { libraryOf } from '../../scripts/bench/scale-library.ts';
import { call, demo, newOwner, type Owner } from '../support/api.ts';
import { operationOf, recordDynamo } from '../support/dynamo-recorder.ts';
import { functionFor } from '../support/in-function.ts';
import { type OwnRuntime, ownRuntime } from '../support/runtime.ts';

const DECKS = 500;
const LIMIT = 20;
/** Index items one search request may read (contract §8.1: max(200, 4 × limit)). */
const BUDGET = Math.max(200, 4 * LIMIT);

interface Made {
  slug: string;
  cards: { card_id: string; count: number }[];
  main: FactionId;
  ally: FactionId;
}

let runtime: OwnRuntime | undefined;
let player: Owner;
const made: Made[] = [];
const owned: Record<string, number> = {};

beforeAll(async () => {
  runtime = await ownRuntime('buildable');
  const author = await newOwner(undefined, 'Builder');
  player = await newOwner(undefined, 'Collector');
  const make = libraryOf(demo, 3);
  await atMost(
    8,
    Array.from({ length: DECKS }, (_, i) => i),
    async (i) => {
      const d = make(i);
      const r = await call('POST', author.decks, {
        key: author.key,
        body: { deck_code: d.deck_code, tags: d.tags, guide: { system: d.guide?.system }, visibility: 'public' },
      });
      expect(r.status, r.text).toBe(201);
      made[i] = { slug: r.body.data.share_slug, cards: parseDeckCode(d.deck_code).cards, main: d.main_faction, ally: d.ally_faction };
    },
  );
  // The collection: every copy of the first 60 decks' cards (as many as the most any of them holds), then one copy
  // fewer of the first card of 20 of them — so some decks are buildable, some a copy or two short, most far off.
  for (const d of made.slice(0, 60)) for (const c of d.cards) owned[c.card_id] = Math.max(owned[c.card_id] ?? 0, c.count);
  for (const d of made.slice(0, 20)) {
    const first = d.cards[0]?.card_id as string;
    owned[first] = Math.max(0, (owned[first] ?? 0) - 1);
  }
  const put = await call('PUT', `/api/v1/users/${player.userId}/collection`, { key: player.key, body: { cards: owned } });
  expect(put.status, put.text).toBe(200);
}, 300_000);
afterAll(async () => {
  await runtime?.close();
});

/** Copies a deck still needs of the collection, recounted here. */
const need = (d: Made) => d.cards.reduce((n, c) => n + Math.max(0, c.count - (owned[c.card_id] ?? 0)), 0);

/** Walks a search by next_cursor in the search's own function, counting what each page reads at the store. */
async function walk(query: string, key?: string) {
  const items: { share_slug: string; created_at: string; missing?: { total: number; cards: { card_id: string; count: number }[] } }[] = [];
  const pages: { index: number; gets: number; other: string[] }[] = [];
  let cursor: string | null = null;
  do {
    const url = `/api/v1/decks?${query}&limit=${LIMIT}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const fn = await functionFor('GET', url);
    const recorder = recordDynamo();
    const answer = await fn.invoke(key ? { authorization: `Bearer ${key}` } : {});
    recorder.stop();
    expect(answer.statusCode, String(answer.body)).toBe(200);
    const body = JSON.parse(String(answer.body));
    items.push(...body.data);
    const ops = recorder.calls.map(operationOf);
    pages.push({
      index: recorder.calls.reduce((n, c) => n + (operationOf(c) === 'Query' ? (c.scanned ?? 0) : 0), 0),
      gets: ops.filter((o) => o === 'GetItem').length,
      other: ops.filter((o) => o !== 'Query' && o !== 'GetItem'),
    });
    cursor = body.meta.next_cursor;
    expect(pages.length).toBeLessThan(200);
  } while (cursor);
  return { items, pages };
}

describe('which public decks a collection can build, and formats (500 public decks)', () => {
  for (const most of [0, 2]) {
    it(`buildable_by with missing_max ${most}: exactly the decks the recount says, each saying what it misses, every page within its budget`, async () => {
      const expected = made.filter((d) => need(d) <= most);
      // The library gives both: some decks within reach, and (for 2) more than are buildable now.
      expect(expected.length).toBeGreaterThan(most === 0 ? 20 : made.filter((d) => need(d) === 0).length);
      expect(expected.length).toBeLessThan(DECKS);
      const { items, pages } = await walk(`buildable_by=${player.userId}&missing_max=${most}`, player.key);
      const slugs = items.map((i) => i.share_slug);
      expect(new Set(slugs).size).toBe(slugs.length);
      expect(new Set(slugs)).toEqual(new Set(expected.map((d) => d.slug)));
      // Newest first (sort=date), across the pages.
      const times = items.map((i) => i.created_at);
      expect(times).toEqual([...times].sort().reverse());
      const bySlug = new Map(made.map((d) => [d.slug, d]));
      for (const item of items) {
        const d = bySlug.get(item.share_slug) as Made;
        const short = d.cards.flatMap((c) => {
          const n = c.count - (owned[c.card_id] ?? 0);
          return n > 0 ? [{ card_id: c.card_id, count: n }] : [];
        });
        expect(item.missing).toEqual({ total: need(d), cards: short });
      }
      // Each page: at most the budget of index items, the key and the collection (two GetItems) and the cursor keys
      // (made by this process's first cursor, a PutItem, when the store holds none yet).
      expect(pages.length).toBeGreaterThan(1);
      for (const [i, p] of pages.entries()) {
        expect(p.index).toBeLessThanOrEqual(BUDGET);
        expect(p.gets).toBeLessThanOrEqual(3);
        expect(p.other.filter((o) => i > 0 || o !== 'PutItem')).toEqual([]);
      }
      // A walk over HTTP gives the same decks in the same order.
      const over: string[] = [];
      let cursor: string | null = null;
      do {
        const r = await call(
          'GET',
          `/api/v1/decks?buildable_by=${player.userId}&missing_max=${most}&limit=${LIMIT}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { key: player.key },
        );
        expect(r.status, r.text).toBe(200);
        over.push(...r.body.data.map((d: { share_slug: string }) => d.share_slug));
        cursor = r.body.meta.next_cursor;
      } while (cursor);
      expect(over).toEqual(slugs);
    }, 120_000);
  }

  it('format: pauper and singleton keep exactly the decks their rules allow', async () => {
    const pauper = made.filter((d) => d.cards.every((c) => !['special', 'elite'].includes(demo.get(c.card_id)?.rarity ?? '')));
    const singleton = made.filter((d) => d.cards.every((c) => c.count === 1));
    const monodeck = made.filter((d) =>
      d.cards.every((c) => {
        const card = demo.get(c.card_id);
        return !card || countsAs(card, d.main, d.ally) !== d.ally;
      }),
    );
    for (const [format, expected] of [
      ['pauper', pauper],
      ['singleton', singleton],
      ['monodeck', monodeck],
    ] as const) {
      const { items, pages } = await walk(`format=${format}`);
      expect(new Set(items.map((i) => i.share_slug)), format).toEqual(new Set(expected.map((d) => d.slug)));
      for (const p of pages) expect(p.index).toBeLessThanOrEqual(BUDGET);
      expect(items.every((i) => i.missing === undefined)).toBe(true);
    }
    // The library holds decks of each kind and decks of none (a filter that kept all or none would show nothing).
    expect([pauper.length, singleton.length].every((n) => n > 0 && n < DECKS)).toBe(true);
  }, 120_000);

  it('buildable_by needs that account’s key with collection:read: none 401, another account’s 403, a key without the scope 403', async () => {
    const q = `/api/v1/decks?buildable_by=${player.userId}`;
    const none = await call('GET', q);
    expect([none.status, none.body.error.code]).toEqual([401, 'unauthorized']);
    const other = await newOwner();
    const theirs = await call('GET', q, { key: other.key });
    expect([theirs.status, theirs.body.error.code]).toEqual([403, 'user_mismatch']);
    const narrow = await newOwner(['decks:read']);
    const scoped = await call('GET', `/api/v1/decks?buildable_by=${narrow.userId}`, { key: narrow.key });
    expect([scoped.status, scoped.body.error.code]).toEqual([403, 'insufficient_scope']);
    const alone = await call('GET', '/api/v1/decks?missing_max=1');
    expect([alone.status, alone.body.error.code]).toEqual([400, 'invalid_parameter']);
    const bad = await call('GET', '/api/v1/decks?buildable_by=someone', { key: player.key });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_parameter']);
    const over = await call('GET', `${q}&missing_max=40`, { key: player.key });
    expect([over.status, over.body.error.code]).toEqual([400, 'invalid_parameter']);
    // The key's own account, with the scope: 200, and never cached.
    const mine = await call('GET', q, { key: player.key });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control') ?? '').not.toMatch(/public|max-age|s-maxage/);
  });
});
