/**
 * Versions past the last 100 are dropped by the store-change worker, and the version that holds the texts
 * every kept version reads stays (contract §9.2; lib/store/versions.ts trimVersions). Trims of one deck
 * ran at once in a batch (four pieces of work at a time): a trim that found the version after its own
 * already dropped by a later trim took that for "no kept version reads anything" and deleted the holder
 * of the description — seen once in CI under load (100 version items where 101 were due), and every
 * read of a kept version then failed. Here, on a DynamoDB Local of this file's own, with the worker's
 * grants only: trims run in every order keep the holder, and a batch's trims of one deck are one piece.
 */

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { workerNamed } from '#routes/workers.ts';
import { documentClient } from '#store/client.ts';
import { createDeck, getDeck, replaceDeck } from '#store/decks.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { VERSIONS_KEPT, versionKey, versionsPk } from '#store/items/version.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { readVersion, trimVersions } from '#store/versions.ts';
import { handleStoreChanges, workOf } from '#workers/store-changes.ts';
import { asRoute } from '../../infra/local/grants-guard.ts';
import { legalCode, storedDeck } from '../support/decks.ts';
import { guardedStoreForFile } from '../support/store.ts';

guardedStoreForFile();
const worker = workerNamed('storeChanges');
const asWorker = <T>(run: () => Promise<T>) => asRoute(worker, run);
const demo = demoCatalogue();
const description = 'd'.repeat(5_000);
/** Past the window by this many: versions 1..EXTRA leave it, version 1 holds the description. */
const EXTRA = 6;

/** A deck with a long description, written VERSIONS_KEPT + EXTRA times (its description set once, by version 1). */
async function deckOfManyVersions(): Promise<StoredDeck> {
  const deck = storedDeck({
    deck_code: legalCode(demo, 'soviet', 'usa'),
    guide: { system: 'Tempo', description, core_cards: [], reserve_recommendations: [] },
  });
  expect(await createDeck(deck)).toBe('ok');
  for (let i = 1; i < VERSIONS_KEPT + EXTRA; i++) {
    const current = (await getDeck(deck.user_id, deck.id)) as StoredDeck;
    expect(await replaceDeck({ ...current, sort_order: i, version: current.version + 1 }, current)).toBe(true);
  }
  return deck;
}

const versionItems = async (deck: StoredDeck) =>
  (
    await documentClient().send(
      new QueryCommand({
        TableName: tableName(DECKS),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': versionsPk(deck.user_id, deck.id) },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

/** What a kept window must be: version 1 retired (it holds the description), the last VERSIONS_KEPT readable with it. */
async function expectWindowKept(deck: StoredDeck): Promise<void> {
  const items = await versionItems(deck);
  expect(items.filter((i) => i.retired).map((i) => i.version)).toEqual([1]);
  expect(items.filter((i) => !i.retired).map((i) => i.version)).toEqual(Array.from({ length: VERSIONS_KEPT }, (_, i) => EXTRA + 1 + i));
  const oldest = await readVersion(deck.user_id, deck.id, EXTRA + 1);
  expect(oldest?.guide?.description).toBe(description);
}

let sequence = 0;
/** A version's INSERT as the stream carries it. */
const insertOf = (item: Record<string, unknown>): DynamoDBRecord => ({
  eventName: 'INSERT',
  dynamodb: {
    Keys: marshall(versionKey(String(item.user_id), String(item.deck_id), Number(item.version))) as never,
    NewImage: marshall(item, { removeUndefinedValues: true }) as never,
    SequenceNumber: String(++sequence).padStart(21, '0'),
  },
});

describe('versions past the last 100, trimmed', () => {
  it('in reverse order (each trim finds the version after its own gone): the holder of the description stays, retired', async () => {
    const deck = await deckOfManyVersions();
    for (let newest = VERSIONS_KEPT + EXTRA; newest > VERSIONS_KEPT; newest--)
      await asWorker(() => trimVersions(deck.user_id, deck.id, newest));
    await expectWindowKept(deck);
    // Again, in order: idempotent.
    for (let newest = VERSIONS_KEPT + 1; newest <= VERSIONS_KEPT + EXTRA; newest++)
      await asWorker(() => trimVersions(deck.user_id, deck.id, newest));
    await expectWindowKept(deck);
  }, 120_000);

  it("a batch's trims of one deck are one piece, run oldest first; the worker's batch keeps the holder", async () => {
    const [deck, other] = [await deckOfManyVersions(), await deckOfManyVersions()];
    const due = async (d: StoredDeck) => (await versionItems(d)).filter((i) => i.trim);
    const records = [...(await due(deck)), ...(await due(other))].map(insertOf);
    expect(records.length).toBe(2 * EXTRA);
    // The records of two decks interleaved, newest first within each: still one piece a deck, from its earliest record.
    const shuffled = [...records].reverse();
    const pieces = workOf(shuffled);
    expect(pieces.length).toBe(2);
    expect(pieces.map((p) => p.first).sort()).toEqual([records[0]?.dynamodb?.SequenceNumber, records[EXTRA]?.dynamodb?.SequenceNumber]);
    expect(await asWorker(() => handleStoreChanges({ Records: shuffled }))).toEqual({ batchItemFailures: [] });
    await expectWindowKept(deck);
    await expectWindowKept(other);
  }, 180_000);
});
