/**
 * Search cost as the library grows: 10,000 public decks in DynamoDB Local (SCALE_DECKS for more), and
 * the index items each search request reads (ScannedCount summed over its queries, recorded at the
 * client) held to bounds: no filter ≤ limit + 1; one card filter ≤ limit + 1; one main_faction,
 * ally_faction or tag filter ≤ 2 × limit; each sort; any request ≤ max(200, 4 × limit) (contract §8.1),
 * deep numbered pages coming back short with a cursor. Decks differ in their cards (the choice rotates
 * through each faction's cards), so one card is held by about a third of the decks of its faction.
 */

import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { searchBudget } from '#public/search.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { deckName, FACTION_IDS, type FactionId, MAIN_FACTION_IDS } from '#rules/factions.ts';
import { SORTS } from '#rules/sorts.ts';
import { documentClient } from '#store/client.ts';
import { deckItems } from '#store/decks.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { DECKS, tableName } from '#store/tables.ts';
import type { LocalDynamo } from '../../infra/local/dynamodb.ts';
import { lambdaContext, matchRoute, toEvent } from '../../infra/local/events.ts';
import { legalCode, storedDeck } from '../support/decks.ts';
import { recordDynamo } from '../support/dynamo-recorder.ts';
import { storeOfOwn } from '../support/store.ts';

const DECK_COUNT = Number(process.env.SCALE_DECKS ?? 10_000);
const TAGS = Array.from({ length: 40 }, (_, i) => `tag${i}`);
let dynamo: LocalDynamo;
let search: (query: string) => Promise<{ status: number; body: { data: unknown[]; meta: { next_cursor: string | null } } }>;

function seedDeck(i: number, cat = demoCatalogue()): StoredDeck {
  const main = MAIN_FACTION_IDS[i % MAIN_FACTION_IDS.length] as FactionId;
  const allies = FACTION_IDS.filter((f) => f !== main);
  const ally = allies[Math.floor(i / 5) % allies.length] as FactionId;
  const created = new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();
  return storedDeck({
    share_slug: `s${String(i).padStart(11, '0')}`,
    author_name: `Author ${i % 97}`,
    name: deckName(main, ally),
    main_faction: main,
    ally_faction: ally,
    deck_code: legalCode(cat, main, ally, 12, Math.floor(i / 45) % 30),
    tags: [TAGS[i % TAGS.length] as string, TAGS[(i * 7) % TAGS.length] as string].filter((t, j, a) => a.indexOf(t) === j),
    guide: { system: ['Blitz', 'Control', 'Tempo', 'Ramp'][i % 4] as string, description: '', core_cards: [], reserve_recommendations: [] },
    views: (i * 7919) % 5000,
    likes: (i * 104_729) % 300,
    created_at: created,
    updated_at: created,
  });
}

beforeAll(async () => {
  dynamo = await storeOfOwn();

  const started = Date.now();
  const items = Array.from({ length: DECK_COUNT }, (_, i) => deckItems(seedDeck(i))).flatMap((d) => [d.deck, ...d.entries]);
  const batches = Array.from({ length: Math.ceil(items.length / 25) }, (_, b) => items.slice(b * 25, b * 25 + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      let pending = (batches[next++] as Record<string, unknown>[]).map((Item) => ({ PutRequest: { Item } }));
      while (pending.length) {
        const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName(DECKS)]: pending } }));
        pending = (out.UnprocessedItems?.[tableName(DECKS)] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  console.log(`seeded ${DECK_COUNT} public decks (${items.length} items) in ${Date.now() - started} ms`);

  const { handler } = await import('../../functions/search-decks.ts');
  search = async (query) => {
    const url = `/api/v1/decks?${query}`;
    const { route, params } = matchRoute('GET', '/api/v1/decks');
    const r = await handler(toEvent({ method: 'GET', url, headers: {}, body: Buffer.alloc(0) }, route, params), lambdaContext(route));
    return { status: r.statusCode ?? 0, body: JSON.parse(r.body as string) };
  };
});

afterAll(async () => {
  await dynamo?.stop();
});

const rows: string[] = [];
async function measure(query: string, limit: number) {
  const recorder = recordDynamo();
  const r = await search(`${query}${query ? '&' : ''}limit=${limit}`);
  recorder.stop();
  expect(r.status).toBe(200);
  const read = recorder.scanned();
  rows.push(
    `${(query || '(no filter)').padEnd(44)} limit ${String(limit).padStart(2)}  returned ${String(r.body.data.length).padStart(2)}  items read ${read}`,
  );
  return { read, returned: r.body.data.length, cursor: r.body.meta.next_cursor };
}

/** Card ids of the seeded deck `i`. */
const cardsOf = (i: number) => parseDeckCode(seedDeck(i).deck_code).cards.map((c) => c.card_id);

describe(`search over ${DECK_COUNT} public decks`, () => {
  afterAll(() => console.log(`items read per search request:\n${rows.join('\n')}`));

  it.each(SORTS)('no filter, sort=%s: at most limit + 1 items read', async (sort) => {
    for (const limit of [20, 50]) {
      const { read, returned } = await measure(`sort=${sort}`, limit);
      expect(returned).toBe(limit);
      expect(read).toBeLessThanOrEqual(limit + 1);
    }
  });

  it.each(SORTS)('one filter (main, ally or tag), sort=%s: at most 2 × limit', async (sort) => {
    for (const filter of ['main_faction=japan', 'ally_faction=finland', 'tag=tag7']) {
      const { read, returned } = await measure(`${filter}&sort=${sort}`, 20);
      expect(returned).toBe(20);
      expect(read).toBeLessThanOrEqual(2 * 20);
    }
  });

  it.each(SORTS)('one card filter, sort=%s: at most limit + 1 items read, a full page', async (sort) => {
    const [card] = cardsOf(0);
    for (const limit of [20, 50]) {
      const { read, returned } = await measure(`card=${card}&sort=${sort}`, limit);
      expect(returned).toBe(limit);
      expect(read).toBeLessThanOrEqual(limit + 1);
    }
  });

  it('card combinations (two cards, card + faction, card + tag, excluded cards) stay within the budget', async () => {
    const [a, b] = cardsOf(0);
    const [, , , , , , far] = cardsOf(0 + 45 * 15);
    const seed0 = seedDeck(0);
    for (const query of [
      `card=${a}&card=${b}`,
      `card=${a}&card=${b}&sort=likes`,
      `card=${a}&ally_faction=${seed0.ally_faction}`,
      `card=${a}&main_faction=${seed0.main_faction}&sort=views`,
      `card=${a}&tag=${seed0.tags[0]}`,
      `card=${a}&exclude_card=${b}`,
      `exclude_card=${a}`,
      `exclude_card=${a}&exclude_card=${far}&sort=views`,
      `card=${a}&card=${far}`,
    ]) {
      const { read } = await measure(query, 20);
      expect(read, query).toBeLessThanOrEqual(searchBudget(20));
    }
  });

  it('walking far by cursor costs the same per page', async () => {
    let cursor: string | null = null;
    let read = 0;
    for (let page = 1; page <= 6; page++) {
      const recorder = recordDynamo();
      const r = await search(`sort=views&limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      recorder.stop();
      read = recorder.scanned();
      cursor = r.body.meta.next_cursor;
      expect(read).toBeLessThanOrEqual(51);
    }
    rows.push(`${'sort=views, 6th page by cursor'.padEnd(44)} limit 50  items read ${read}`);
  });

  it('combined filters and q stay within their read budget', async () => {
    for (const query of ['main_faction=soviet&tag=tag3', 'q=tempo', 'q=union&sort=likes', 'ally_faction=usa&q=ramp', 'q=nothing-matches']) {
      const { read } = await measure(query, 20);
      expect(read).toBeLessThanOrEqual(200);
    }
    await measure('page=5', 20);
  });

  it('no request reads more than max(200, 4 × limit): a deep numbered page comes back short, with a cursor', async () => {
    for (const [query, limit] of [
      ['page=20', 50],
      ['page=50', 20],
      ['q=nothing-matches&page=40', 20],
      ['main_faction=soviet&q=tempo&page=10', 20],
      ['q=nothing-matches', 50],
    ] as const) {
      const { read, returned, cursor } = await measure(query, limit);
      expect(read, query).toBeLessThanOrEqual(searchBudget(limit));
      expect(returned, query).toBeLessThan(limit);
      expect(cursor, query).not.toBeNull();
    }
  });

  it('page × limit over 1,000 is 400 naming next_cursor, before anything is read', async () => {
    const recorder = recordDynamo();
    const r = await search('page=21&limit=50');
    recorder.stop();
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain('next_cursor');
    expect(recorder.calls).toHaveLength(0);
  });

  it("following a short deep page's cursors gives exactly that page's decks", async () => {
    const ids = (r: { body: { data: unknown[] } }) => r.body.data.map((d) => (d as { id: string }).id);
    const walked: string[] = [];
    let cursor: string | null = null;
    for (let page = 1; page <= 20; page++) {
      const r = await search(`sort=views&limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      walked.push(...ids(r));
      cursor = r.body.meta.next_cursor;
    }
    const deep: string[] = [];
    let r = await search('sort=views&limit=50&page=20');
    let requests = 1;
    deep.push(...ids(r));
    while (deep.length < 50 && r.body.meta.next_cursor) {
      r = await search(`sort=views&limit=50&cursor=${r.body.meta.next_cursor}`);
      requests++;
      deep.push(...ids(r));
    }
    expect(deep.slice(0, 50)).toEqual(walked.slice(950, 1000));
    rows.push(`${'sort=views&page=20 (limit 50) by its cursors'.padEnd(44)} requests ${requests}, each within ${searchBudget(50)} items`);
  });
});
