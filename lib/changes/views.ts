/**
 * A view bucket changed (its deck counts went up, a count was taken out): for each deck whose count
 * moved, fold it when due (counters.ts); and when a count appears, check that its deck still exists — a
 * view that was counted after its deck was deleted would otherwise bring the count back, forever.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#store/client.ts';
import { foldDeck, viewStepPassed, viewsFoldStep } from '#store/counters.ts';
import { deckBySlug, getDeck } from '#store/decks.ts';
import { facetsOf } from '#store/search.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { bucketKey, VIEW_ATTRIBUTE_PREFIX } from '#store/view-buckets.ts';

type Image = Record<string, unknown>;

/** The deck counts of a bucket before and after a run of its changes: slug → [before, after]. */
export function movedCounts(before: Image | undefined, after: Image | undefined): Map<string, [number | undefined, number | undefined]> {
  const moved = new Map<string, [number | undefined, number | undefined]>();
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})].filter((n) => n.startsWith(VIEW_ATTRIBUTE_PREFIX)));
  for (const name of names) {
    const was = before?.[name] === undefined ? undefined : Number(before[name]);
    const now = after?.[name] === undefined ? undefined : Number(after[name]);
    if (was !== now) moved.set(name.slice(VIEW_ATTRIBUTE_PREFIX.length), [was, now]);
  }
  return moved;
}

/** Takes a gone deck's count out of its bucket. */
const forget = (slug: string) =>
  documentClient().send(
    new UpdateCommand({
      TableName: tableName(DECKS),
      Key: bucketKey(slug),
      UpdateExpression: 'REMOVE #a',
      ExpressionAttributeNames: { '#a': `${VIEW_ATTRIBUTE_PREFIX}${slug}` },
    }),
  );

/** What follows one deck's view count moving from `before` to `after` (undefined: no count). */
export async function viewsMoved(slug: string, before: number | undefined, after: number | undefined): Promise<void> {
  if (after === undefined) return; // taken out (the deck's delete, or a gone deck's count)
  const appeared = before === undefined;
  if (!appeared && !viewStepPassed(before, after)) return;
  // A count that appears: the slug index may still show a deck deleted a moment ago, so the deck item
  // itself, read consistently, says whether it is there.
  const listed = await deckBySlug(slug);
  const deck = listed && appeared ? await getDeck(listed.user_id, listed.id) : listed;
  if (!deck) {
    if (appeared) await forget(slug);
    return;
  }
  if (!viewStepPassed(before ?? 0, after)) return;
  // At or past this total already (a retry of a fold that stopped half-way): its entries are brought up to it.
  const due = deck.views >= after || after - deck.views >= viewsFoldStep(deck.views, 1 + facetsOf(deck).length);
  if (due) await foldDeck(deck, { field: 'views', value: after });
}
