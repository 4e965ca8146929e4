/**
 * The figures of what the library plays count a change once (contract §10.3, §9.1), whatever the store and
 * the stream do: the store-change worker's batches (handleStoreChanges, in this process, with the worker's
 * grants only, on a DynamoDB Local of this file's own behind a fault proxy) meet a transaction applied but
 * its answer lost, the store failing past the retries (the batch named for a retry, then retried), every bulk
 * read answered in part (half its keys handed back unprocessed, as DynamoDB does under load), and the same
 * records delivered again and again — and at rest a recount finds no drift.
 */

import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { workerNamed } from '#routes/workers.ts';
import type { FactionId } from '#rules/factions.ts';
import { documentClient } from '#store/client.ts';
import { createDeck } from '#store/decks.ts';
import { deckKey, type StoredDeck } from '#store/items/deck.ts';
import { recountPlays } from '#store/plays-recount.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { handleStoreChanges } from '#workers/store-changes.ts';
import { asRoute } from '../../infra/local/grants-guard.ts';
import { deckRecord, legalCode, storedDeck } from '../support/decks.ts';
import { THROTTLING } from '../support/fault-proxy.ts';
import { guardedStoreForFile } from '../support/store.ts';

// The file's store calls go through a fault proxy; a worker's steps run with its grants only.
const store = guardedStoreForFile();

const worker = workerNamed('storeChanges');
const demo = demoCatalogue();
const PAIRS: [FactionId, FactionId][] = [
  ['soviet', 'usa'],
  ['germany', 'italy'],
  ['japan', 'britain'],
];
const handle = (records: DynamoDBRecord[]) => asRoute(worker, () => handleStoreChanges({ Records: records }));

describe("the figures under the store's faults and the stream's repeats", () => {
  it('applied once: a lost answer, a batch failed past the retries and retried, the same records again and again', async () => {
    const decks = Array.from({ length: 30 }, (_, i) => {
      const [main, ally] = PAIRS[i % PAIRS.length] as [FactionId, FactionId];
      return storedDeck({
        main_faction: main,
        ally_faction: ally,
        visibility: i % 10 === 9 ? 'unlisted' : 'public',
        deck_code: legalCode(demo, main, ally, 12, i),
        tags: [`t${i % 4}`],
      });
    });
    for (const d of decks) expect(await createDeck(d)).toBe('ok');
    const created = decks.map((d) => deckRecord(undefined, d));

    // A transaction applied whose answer is lost: the SDK sends it again with its token (a no-op), once; and every
    // bulk read of the decks, their contributions and the tags' counts answered in part (the rest asked again).
    store.proxy.set('TransactWriteItems', { kind: 'dropAnswer', times: 1 });
    store.proxy.set('BatchGetItem', { kind: 'partial' });
    expect((await handle(created.slice(0, 10))).batchItemFailures).toEqual([]);
    // 10 decks and their contributions: 20 keys, asked 10, 5, 3, 1, 1 (a key each call at least): 5 calls; then the tags'.
    expect(store.proxy.seen.get('partial')).toBeGreaterThanOrEqual(6);
    store.proxy.set('BatchGetItem');
    // The store failing past the retries: the batch names its first record; the retry (the same records) lands.
    store.proxy.set('TransactWriteItems', { ...THROTTLING.internal, times: 50 });
    const failed = await handle(created.slice(10));
    expect(failed.batchItemFailures).toEqual([{ itemIdentifier: created[10]?.dynamodb?.SequenceNumber }]);
    store.proxy.clear();
    expect((await handle(created.slice(10))).batchItemFailures).toEqual([]);
    // The same records again, twice: nothing more.
    for (let i = 0; i < 2; i++) expect((await handle(created)).batchItemFailures).toEqual([]);
    expect(await recountPlays(false)).toEqual({ decks: 27, drift: [], unreadable: [] });

    // Changes: 5 made private, 5 another code, 3 deleted — each delivered twice, the second time beside the first.
    const changed: DynamoDBRecord[] = [];
    for (const [i, d] of decks.entries()) {
      let after: StoredDeck | undefined = d;
      if (i < 5) after = { ...d, visibility: 'private' };
      else if (i < 10) after = { ...d, deck_code: legalCode(demo, d.main_faction, d.ally_faction, 12, 40 + i) };
      else if (i < 13) after = undefined;
      else continue;
      const key = deckKey(d.user_id, d.id);
      await documentClient().send(
        after
          ? new UpdateCommand({
              TableName: tableName(DECKS),
              Key: key,
              UpdateExpression: 'SET visibility = :v, deck_code = :c',
              ExpressionAttributeValues: { ':v': after.visibility, ':c': after.deck_code },
            })
          : new DeleteCommand({ TableName: tableName(DECKS), Key: key }),
      );
      changed.push(deckRecord(d, after));
    }
    await Promise.all([handle(changed), handle(changed)]);
    expect((await handle(changed)).batchItemFailures).toEqual([]);
    // 27 public, 5 made private, 3 deleted (deck 9, unlisted, got another code: still nothing).
    expect(await recountPlays(false)).toEqual({ decks: 19, drift: [], unreadable: [] });
  }, 120_000);
});
