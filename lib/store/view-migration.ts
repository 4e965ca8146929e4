/**
 * Views from the legacy buckets into the decks' own counts (`deckctl views migrate`; items/view-bucket.ts,
 * items/view-count.ts): each deck's total and its views of the week's days added to its count once — the count
 * marked with the bucket it took them from, on condition that it has no such mark — its revision moved past the
 * bucket's (a fold's order must stay newer than the folds the bucket made), then taken out of the bucket; a
 * bucket with nothing left is deleted. Idempotent and resumable: a deck moved already is only taken out; a run
 * stopped half-way goes on from what the buckets still hold. Run it after the deploy of the version that counts
 * views a deck an item (docs/operations.md): views counted meanwhile land in the counts and are kept.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dayOf } from '#rules/week.ts';
import { atMost } from './at-most.ts';
import { documentClient, unlessConditionFailed } from './client.ts';
import { bucketDecks, bucketKeyAt, VIEW_ATTRIBUTE_PREFIX, VIEW_BUCKETS } from './items/view-bucket.ts';
import { DECKS, tableName } from './tables.ts';
import { addToCount } from './view-counts.ts';

const table = () => tableName(DECKS);

export interface Migrated {
  /** Buckets found, and deleted once empty. */
  buckets: number;
  /** Decks whose counts were moved now, and those a run before had moved already. */
  moved: number;
  already: number;
  views: number;
}

export async function migrateViewBuckets(today = dayOf(Date.now())): Promise<Migrated> {
  const tally: Migrated = { buckets: 0, moved: 0, already: 0, views: 0 };
  for (let bucket = 0; bucket < VIEW_BUCKETS; bucket++) {
    const key = bucketKeyAt(bucket);
    const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }));
    if (!Item) continue;
    tally.buckets++;
    const rev = Number(Item.rev ?? 0);
    await atMost(8, bucketDecks(Item), async ([slug, { views, byDay }]) => {
      const { written } = await addToCount(
        slug,
        (held) =>
          held.migrated
            ? undefined
            : {
                add: { views, byDay, rev: rev + 1 },
                condition: 'attribute_not_exists(#migrated)',
                names: { '#migrated': 'migrated' },
                extra: { migrated: bucket },
              },
        today,
      );
      if (written) {
        tally.moved++;
        tally.views += views;
      } else tally.already++;
      // Out of the bucket (its views of the week go with the bucket, deleted below): a rerun finds it moved. A bucket
      // gone already was emptied and deleted by another run at once: nothing is left to take out (the second
      // of two runs ended with the SDK's raw "The conditional request failed").
      await unlessConditionFailed(
        documentClient().send(
          new UpdateCommand({
            TableName: table(),
            Key: key,
            UpdateExpression: 'REMOVE #v',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#v': `${VIEW_ATTRIBUTE_PREFIX}${slug}` },
          }),
        ),
      );
    });
    await documentClient().send(new DeleteCommand({ TableName: table(), Key: key }));
  }
  return tally;
}
