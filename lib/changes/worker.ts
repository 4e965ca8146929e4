/**
 * The store-change worker: what must follow a write happens here, driven by the decks table's own
 * change stream (DynamoDB Streams; in AWS a Lambda event source mapping, locally infra/local/streams.ts)
 * — never by a timer in a function that may be frozen, nor by a request that may end first. A batch that
 * fails is handed back from its first unfinished record, and retried until it succeeds (contract §9.1):
 *   - a like counter changed         → fold its likes (likes.ts)
 *   - a view bucket changed          → fold the views that moved, forget a gone deck's (views.ts)
 *   - a deck item was deleted        → purge its likes and versions (the delete's transaction took the rest)
 *   - a version past the last 100    → drop the oldest (lib/store/versions.ts)
 *   - a view log changed             → add its new batches to their buckets (view-log.ts; the viewLog
 *                                      worker's, a window at a time)
 * Every step is idempotent: a record seen twice changes nothing more. Records of one item come in order;
 * a batch's records of one item are taken together (its last counter; what moved over its bucket's images).
 */

import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '#http/logger.ts';
import { atMost } from '#store/at-most.ts';
import { purgeLikes } from '#store/likes.ts';
import { purgeVersions, trimVersions } from '#store/versions.ts';
import { likesMoved } from './likes.ts';
import { loggedBatches, viewLogMoved } from './view-log.ts';
import { movedCounts, viewsMoved } from './views.ts';

type Image = Record<string, unknown>;
const image = (raw: Record<string, unknown> | undefined): Image | undefined =>
  raw ? unmarshall(raw as Record<string, AttributeValue>) : undefined;

/** One piece of work, and the first record of the batch it came from (where a retry must start). */
interface Work {
  first: string;
  run: () => Promise<void>;
}

/** Pieces of work run at once (each bounds its own writes): a batch never floods the store. */
const WORK_AT_ONCE = 4;

/** The work a batch of records asks for, in record order, the records of one item together. */
export function workOf(records: readonly DynamoDBRecord[]): Work[] {
  const byItem = new Map<string, DynamoDBRecord[]>();
  for (const r of records) {
    const keys = image(r.dynamodb?.Keys as Record<string, unknown>) ?? {};
    const id = `${keys.pk}\u0000${keys.sk}`;
    byItem.set(id, [...(byItem.get(id) ?? []), r]);
  }
  const work: Work[] = [];
  for (const run of byItem.values()) {
    const first = run[0] as DynamoDBRecord;
    const last = run.at(-1) as DynamoDBRecord;
    const keys = image(first.dynamodb?.Keys as Record<string, unknown>) ?? {};
    const pk = String(keys.pk);
    const sequence = first.dynamodb?.SequenceNumber ?? '';
    if (pk.startsWith('COUNT#')) {
      const counter = image(last.dynamodb?.NewImage as Record<string, unknown>);
      if (!counter) continue; // the counter went with its deck
      const slug = pk.slice('COUNT#'.length);
      work.push({ first: sequence, run: () => likesMoved(slug, Number(counter.likes ?? 0), Number(counter.changes ?? 0)) });
    } else if (pk.startsWith('VIEWS#')) {
      const moved = movedCounts(
        run.map((r) => [image(r.dynamodb?.OldImage as Record<string, unknown>), image(r.dynamodb?.NewImage as Record<string, unknown>)]),
      );
      work.push({ first: sequence, run: () => atMost(WORK_AT_ONCE, moved, ([slug, how]) => viewsMoved(slug, how)) });
    } else if (pk.startsWith('VIEWLOG#')) {
      const group = Number(pk.slice('VIEWLOG#'.length));
      const batches = loggedBatches(
        run.map((r) => [image(r.dynamodb?.OldImage as Record<string, unknown>), image(r.dynamodb?.NewImage as Record<string, unknown>)]),
      );
      if (batches.length > 0) work.push({ first: sequence, run: async () => void (await viewLogMoved(group, batches)) });
    } else if (pk.startsWith('VERSION#')) {
      const kept = image(run.find((r) => r.eventName === 'INSERT')?.dynamodb?.NewImage as Record<string, unknown>);
      if (!kept) continue;
      work.push({ first: sequence, run: () => trimVersions(String(kept.user_id), String(kept.deck_id), Number(kept.version)) });
    } else if (String(keys.sk).startsWith('DECK#')) {
      const removed = run.find((r) => r.eventName === 'REMOVE');
      const deck = image(removed?.dynamodb?.OldImage as Record<string, unknown>);
      if (!removed || !deck) continue;
      const slug = String(deck.share_slug);
      const [userId, deckId] = [String(deck.user_id), String(deck.deck_id)];
      work.push({
        first: removed.dynamodb?.SequenceNumber ?? sequence,
        run: async () => void (await Promise.all([purgeLikes(slug), purgeVersions(userId, deckId)])),
      });
    }
  }
  return work;
}

/**
 * The worker's handler: runs a batch's work and reports the first record whose work did not finish
 * (partial batch response), so that the batch is retried from there — and only from there.
 */
export async function handleChanges(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const failed: string[] = [];
  await atMost(WORK_AT_ONCE, workOf(event.Records ?? []), async (work) => {
    try {
      await work.run();
    } catch (error) {
      logger.warn('store change not handled; retried from its record', { error: error as Error, sequence: work.first });
      failed.push(work.first);
    }
  });
  const earliest = failed.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))[0];
  return { batchItemFailures: earliest ? [{ itemIdentifier: earliest }] : [] };
}
