/**
 * What the library plays, at size (contract §10.3): 10,000 public decks (SCALE_DECKS for more) with a known
 * card mix — each faction's cards chosen in rotation — reach the store-change worker as its stream would
 * hand them over (INSERT records, 100 a batch, in this process: lib/workers/store-changes.ts), and then
 * `meta/cards` of three nations equals a recount to the deck, page by page; `meta/factions` too. A meta
 * read costs the same items and capacity at 1,000 decks and at 10,000.
 */

import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { deckName, FACTION_IDS, type FactionId, MAIN_FACTION_IDS } from '#rules/factions.ts';
import { contributionOf, emptyPool, recount } from '#rules/plays.ts';
import { cardFigures, factionFigures } from '#rules/plays-shown.ts';
import { documentClient } from '#store/client.ts';
import { deckItems } from '#store/decks.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { tagItem } from '#store/items/plays.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { handleStoreChanges } from '#workers/store-changes.ts';
import type { LocalDynamo } from '../../infra/local/dynamodb.ts';
import { legalCode, storedDeck } from '../support/decks.ts';
import { recordDynamo } from '../support/dynamo-recorder.ts';
import { functionFor } from '../support/in-function.ts';
import { storeOfOwn } from '../support/store.ts';

const DECK_COUNT = Number(process.env.SCALE_DECKS ?? 10_000);
const FIRST = 1_000;
const TAGS = Array.from({ length: 60 }, (_, i) => `tag${i}`);
const demo = demoCatalogue();
let dynamo: LocalDynamo;

function seedDeck(i: number): StoredDeck {
  const main = MAIN_FACTION_IDS[i % MAIN_FACTION_IDS.length] as FactionId;
  const allies = FACTION_IDS.filter((f) => f !== main);
  const ally = allies[Math.floor(i / 5) % allies.length] as FactionId;
  return storedDeck({
    share_slug: `m${String(i).padStart(11, '0')}`,
    name: deckName(main, ally),
    main_faction: main,
    ally_faction: ally,
    visibility: 'public',
    deck_code: legalCode(demo, main, ally, 12, Math.floor(i / 45) % 30),
    tags: [TAGS[i % TAGS.length] as string, TAGS[(i * 7) % TAGS.length] as string].filter((t, j, a) => a.indexOf(t) === j),
  });
}
const decks = Array.from({ length: DECK_COUNT }, (_, i) => seedDeck(i));

/** Decks `from`–`to` stored, then handed to the worker as their INSERT records, 100 a batch. */
async function seed(from: number, to: number) {
  const items = decks.slice(from, to).map((d) => deckItems(d).deck);
  for (let b = 0; b < items.length; b += 25) {
    let pending = items.slice(b, b + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending.length) {
      const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName(DECKS)]: pending } }));
      pending = (out.UnprocessedItems?.[tableName(DECKS)] ?? []) as typeof pending;
    }
  }
  for (let b = 0; b < items.length; b += 100) {
    const records = items.slice(b, b + 100).map(
      (item, k): DynamoDBRecord => ({
        eventName: 'INSERT',
        dynamodb: {
          Keys: marshall({ pk: item.pk, sk: item.sk }) as never,
          NewImage: marshall(item, { removeUndefinedValues: true }) as never,
          SequenceNumber: String(from + b + k + 1),
        },
      }),
    );
    expect((await handleStoreChanges({ Records: records })).batchItemFailures).toEqual([]);
  }
}

async function read(path: string) {
  const fn = await functionFor('GET', path);
  const recorder = recordDynamo({ capacity: true });
  const r = await fn.invoke();
  recorder.stop();
  const units = recorder.calls.reduce((n, c) => n + (c.units ?? 0), 0);
  const items = recorder.calls.reduce((n, c) => n + (c.scanned ?? (c.found ? 1 : 0)), 0);
  return { status: r.statusCode, body: JSON.parse(r.body as string), units, items, operations: recorder.operations() };
}

/** Every card of a nation, by cursor. */
async function walk(main: string) {
  const rows: unknown[] = [];
  let cursor: string | null = null;
  do {
    const r = await read(`/api/v1/meta/cards?main_faction=${main}&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(r.status).toBe(200);
    rows.push(...r.body.data);
    cursor = r.body.meta.next_cursor;
  } while (cursor);
  return rows;
}

/** The reads, and the pool items each sums (an ally's: its 4 or 5 pairs; the library's: the 5 main factions). */
const READS = [
  ['meta/cards', '/api/v1/meta/cards?main_faction=soviet&limit=50', 1],
  ['meta/cards (a pair)', '/api/v1/meta/cards?main_faction=germany&ally_faction=italy&limit=50', 1],
  ['meta/cards (an ally)', '/api/v1/meta/cards?ally_faction=usa&limit=50', 4],
  ['meta/cards (library)', '/api/v1/meta/cards?limit=50', 5],
  ['meta/factions', '/api/v1/meta/factions', 1],
] as const;
const costs: Record<string, { units: number; items: number }[]> = {};
async function cost(label: string) {
  for (const [name, path] of READS) {
    // The second read: the first also reads (and may make) the cursor keys, once a process.
    await read(path);
    const r = await read(path);
    expect(r.status, label).toBe(200);
    costs[name] = [...(costs[name] ?? []), { units: r.units, items: r.items }];
  }
}

beforeAll(async () => {
  dynamo = await storeOfOwn();
  const started = Date.now();
  await seed(0, FIRST);
  await cost(`${FIRST} decks`);
  await seed(FIRST, DECK_COUNT);
  await cost(`${DECK_COUNT} decks`);
  console.log(`seeded ${DECK_COUNT} public decks through the worker in ${Date.now() - started} ms`);
});
afterAll(async () => {
  await dynamo?.stop();
});

describe(`what the library plays over ${DECK_COUNT} public decks`, () => {
  const want = recount(decks.map((d) => contributionOf(d)));

  it.each(['soviet', 'germany', 'japan'])('meta/cards of %s equals a recount to the deck, every page', async (main) => {
    expect(await walk(main)).toEqual(cardFigures(want.pools.get(main) ?? emptyPool(), demo, 'en'));
  });

  it('meta/factions equals a recount: every pair, the 50 most used tags', async () => {
    const r = await read('/api/v1/meta/factions');
    expect(r.body.data).toEqual(factionFigures(want.decks, want.counts.pairs, want.counts.tags));
    expect(r.body.meta.decks).toBe(DECK_COUNT);
  });

  it(`a meta read costs the same items and capacity (± a unit a pool item) at ${FIRST} decks and at ${DECK_COUNT}`, () => {
    console.log(
      `meta reads, ${FIRST} → ${DECK_COUNT} decks:\n${Object.entries(costs)
        .map(([name, [a, b]]) => `${name.padEnd(20)} items ${a?.items} → ${b?.items}  read units ${a?.units} → ${b?.units}`)
        .join('\n')}`,
    );
    // The same items; the units within one a pool item read (a pool's item grows by a card's two figures when a
    // deck first plays the card).
    for (const [name, , pools] of READS) {
      const [small, large] = costs[name] ?? [];
      expect(large?.items, name).toBe(small?.items);
      expect(Math.abs((large?.units ?? 0) - (small?.units ?? 0)), name).toBeLessThanOrEqual(pools);
    }
  });
});

describe('meta/factions with 20,000 distinct tags (issue 43: a page boundary never cuts the answer short)', () => {
  it("the 50 most used tags are the recount's, in order, read from one page of the tags index; the read costs no more", async () => {
    const want = recount(decks.map((d) => contributionOf(d)));
    // 20,000 tags more, each with its own count (300–399 decks: the most used tie by the hundreds), an item a tag:
    // about 2 MB of tag items, more than one 1 MB page of a Query or Scan.
    const seeded = Array.from({ length: 20_000 }, (_, i) => [`many-${String(i).padStart(5, '0')}`, 300 + ((i * 7919) % 100)] as const);
    const items = seeded.map(([tag, n]) => tagItem(tag, n));
    for (let b = 0; b < items.length; b += 25) {
      let pending = items.slice(b, b + 25).map((Item) => ({ PutRequest: { Item } }));
      while (pending.length) {
        const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName(DECKS)]: pending } }));
        pending = (out.UnprocessedItems?.[tableName(DECKS)] ?? []) as typeof pending;
      }
    }
    const tags = new Map([...want.counts.tags, ...seeded]);
    const r = await read('/api/v1/meta/factions');
    expect(r.body.data.tags).toEqual(factionFigures(want.decks, want.counts.pairs, tags).tags);
    expect(r.body.data.tags).toHaveLength(50);
    // One item and 50 small index items, as with a few tags: bounded by the items' own size (a tag of 32
    // characters, its count and rank: 50 of them at most 10 KB, 1.5 read units), not by how many tags there are.
    expect(r.items).toBe(51);
    expect(r.units).toBeLessThanOrEqual(0.5 + 1.5);
  }, 300_000);
});
