/**
 * The views at rest (`deckctl views check [--repair]`): every public deck's folded views and views of the week
 * against its count, held to the bounds the fold rules keep at rest (lib/rules/folds.ts); and the view logs'
 * batches still waiting (none at rest: the view-log worker takes each out once moved — one that stays is a
 * batch given up on, docs/operations.md). With `repair`, a deck outside its bounds is folded from its count
 * (its revision moved on first, so that the fold is newer than any before it). Run it after a migration, after
 * discarded changes, or to check.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { viewsFoldWithinBound, weekFoldWithinBound } from '#rules/folds.ts';
import { dayOf, weekViews } from '#rules/week.ts';
import { atMost } from './at-most.ts';
import { documentClient } from './client.ts';
import { allPublicDecks } from './decks.ts';
import { foldDeck } from './folds.ts';
import { facetsOf } from './items/search-entry.ts';
import { BATCH_PREFIX, VIEW_GROUPS, viewLogKey } from './items/view-log.ts';
import { DECKS, tableName } from './tables.ts';
import { bumpCount, readCount } from './view-counts.ts';

export interface ViewsChecked {
  decks: number;
  /** A line a deck outside its bounds: `<share_slug>: views <folded> / <count>, week <folded> / <count>`. */
  drift: string[];
  /** Batches waiting in the view logs. */
  waiting: number;
}

export async function checkViews(repair: boolean, today = dayOf(Date.now())): Promise<ViewsChecked> {
  const checked: ViewsChecked = { decks: 0, drift: [], waiting: 0 };
  await atMost(8, allPublicDecks(), async (deck) => {
    checked.decks++;
    const count = await readCount(deck.share_slug);
    const week = weekViews(count.slots, Math.max(today, count.day ?? today));
    const items = 1 + facetsOf(deck).length;
    if (viewsFoldWithinBound(deck.views, count.views, items) && weekFoldWithinBound(deck.views_7d ?? 0, week, items)) return;
    checked.drift.push(`${deck.share_slug}: views ${deck.views} / ${count.views}, week ${deck.views_7d ?? 0} / ${week}`);
    if (repair) await foldDeck(deck, { field: 'views', value: count.views, week, rev: await bumpCount(deck.share_slug) });
  });
  for (let group = 0; group < VIEW_GROUPS; group++) {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: tableName(DECKS), Key: viewLogKey(group), ConsistentRead: true }),
    );
    checked.waiting += Object.keys(Item ?? {}).filter((name) => name.startsWith(BATCH_PREFIX)).length;
  }
  return checked;
}
