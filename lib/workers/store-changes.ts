/**
 * The store-change worker: what must follow a write happens here, driven by the decks table's own
 * change stream — never by a timer in a function that may be frozen, nor by a request that may end
 * first. A batch that fails is handed back from its first unfinished record (batch.ts):
 *   - a like counter changed         → fold its likes (likes.ts)
 *   - a view bucket changed          → fold the views that moved, forget a gone deck's (views.ts)
 *   - a deck item was deleted        → purge its likes and versions (the delete's transaction took the rest)
 *   - a version past the last 100    → drop the oldest (lib/store/versions.ts)
 *   - a deck changed what it adds to what the library plays (made public or not, its factions, tags or
 *     code, deleted) → bring the figures up to the batch's changed decks, summed (lib/store/meta.ts)
 * Every step is idempotent: a record seen twice changes nothing more.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { contributionOf, sameContribution } from '#rules/meta.ts';
import { atMost } from '#store/at-most.ts';
import { COUNTER } from '#store/items/counter.ts';
import { DECK } from '#store/items/deck.ts';
import { VERSION } from '#store/items/version.ts';
import { VIEW_BUCKET } from '#store/items/view-bucket.ts';
import { purgeLikes } from '#store/likes.ts';
import { applyMeta } from '#store/meta.ts';
import { purgeVersions, trimVersions } from '#store/versions.ts';
import { batchHandler, changesOf, earliestOf, image, itemRunsOf, WORK_AT_ONCE, type Work } from './batch.ts';
import { likesMoved } from './likes.ts';
import { movedCounts, viewsMoved } from './views.ts';

/** The work a batch of records asks for, in record order, the records of one item together. */
export function workOf(records: readonly DynamoDBRecord[]): Work[] {
  const work: Work[] = [];
  const meta: { userId: string; deckId: string; first: string }[] = [];
  for (const { keys, sequence, run } of itemRunsOf(records)) {
    const last = run.at(-1) as DynamoDBRecord;
    const pk = String(keys.pk);
    if (COUNTER.owns(pk)) {
      const counter = image(last.dynamodb?.NewImage as Record<string, unknown>);
      if (!counter) continue; // the counter went with its deck
      const slug = pk.slice(COUNTER.prefix.length);
      work.push({ first: sequence, run: () => likesMoved(slug, Number(counter.likes ?? 0), Number(counter.changes ?? 0)) });
    } else if (VIEW_BUCKET.owns(pk)) {
      const moved = movedCounts(changesOf(run));
      work.push({ first: sequence, run: () => atMost(WORK_AT_ONCE, moved, ([slug, how]) => viewsMoved(slug, how)) });
    } else if (VERSION.owns(pk)) {
      const kept = image(run.find((r) => r.eventName === 'INSERT')?.dynamodb?.NewImage as Record<string, unknown>);
      if (!kept) continue;
      work.push({ first: sequence, run: () => trimVersions(String(kept.user_id), String(kept.deck_id), Number(kept.version)) });
    } else if (String(keys.sk).startsWith(DECK.sk)) {
      // Folds of likes and views change a deck item too, and nothing it adds to the figures: those are no work.
      const changed = changesOf(run).some(
        ([before, after]) => !sameContribution(contributionOf(before as never), contributionOf(after as never)),
      );
      if (changed) {
        const userId = String(keys.pk).slice(DECK.prefix.length);
        meta.push({ userId, deckId: String(keys.sk).slice(DECK.sk.length), first: sequence });
      }
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
  // One piece for the batch's figures: its decks' changes summed (a burst of creates is one write a figure item a chunk).
  if (meta.length > 0) {
    const first = earliestOf(meta.map((m) => m.first)) as string;
    work.push({ first, run: () => applyMeta(meta) });
  }
  return work;
}

/** The store-change worker's handler (functions/store-changes-worker.ts). */
export const handleStoreChanges = batchHandler('storeChanges', workOf);
