/**
 * A new day of the views' week (lib/rules/week.ts), opened at midnight, UTC (an EventBridge schedule; locally a
 * timer: lib/routes/workers.ts DAY_OPENER) on the count of every public deck whose folded views of the week are above 0
 * (search's `all` facet by trending): one conditional write a deck, so that the day 8 before leaves its week and
 * the store-change worker folds what it lost into search (`views_7d`, `by_trending`: view-folds.ts) — a deck gone
 * cold leaves trending with no view; and each deck on a trending board offered again with its new week
 * (lib/store/boards.ts), so that the exact part of trending follows the day. A count whose deck gets a view first is opened by that view's write; one
 * opened already is left as it is, so a retry writes nothing.
 */
import type { ScheduledEvent } from 'aws-lambda';
import { logger } from '#logger';
import { dayOf } from '#rules/week.ts';
import { atMost } from '#store/at-most.ts';
import { openDayOnBoards } from '#store/boards.ts';
import { decksWithAWeek, openDay } from '#store/view-counts.ts';

/** Count writes in flight at once. */
const AT_ONCE = 8;

/** Opens the day of the event's time on every count with a week. Answers the day and the counts written. */
export async function openViewDay(event: Pick<ScheduledEvent, 'time'>): Promise<{ day: number; opened: number }> {
  const day = dayOf(Date.parse(event.time));
  if (!Number.isFinite(day)) throw new Error(`a scheduled event without a time: ${JSON.stringify(event.time)}`);
  let opened = 0;
  await atMost(AT_ONCE, decksWithAWeek(), async (slug) => {
    const written = await openDay(slug, day);
    opened += written;
  });
  // The trending boards: each deck on one offered again with its week ending the new day (boards.ts).
  const boards = await openDayOnBoards(day);
  logger.info('day of the views week opened', { day, opened, boards });
  return { day, opened };
}
