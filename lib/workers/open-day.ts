/**
 * The day's slots of the views' week (lib/rules/week.ts), opened in every view bucket at midnight, UTC (an
 * EventBridge schedule; locally a timer: lib/workers/ DAY_OPENER): each slot that holds the day 8 before
 * is emptied for the new day — one conditional write a bucket, 64 a day. What it takes out of a deck's
 * week is folded into search (`views_7d`, `by_trending`) by the store-change worker, which sees each
 * bucket change (views.ts): a week falls with no view. The view-log worker opens a slot itself when a
 * view of a new day comes first; a bucket opened already is left as it is, so a retry writes nothing.
 */
import type { ScheduledEvent } from 'aws-lambda';
import { logger } from '#http/logger.ts';
import { dayOf } from '#rules/week.ts';
import { atMost } from '#store/at-most.ts';
import { VIEW_BUCKETS } from '#store/items/view-bucket.ts';
import { openSlot } from '#store/view-log.ts';

/** Bucket writes in flight at once. */
const AT_ONCE = 8;

/** Opens the day of the event's time in every bucket. Answers the day and the buckets written. */
export async function openViewDay(event: Pick<ScheduledEvent, 'time'>): Promise<{ day: number; opened: number }> {
  const day = dayOf(Date.parse(event.time));
  if (!Number.isFinite(day)) throw new Error(`a scheduled event without a time: ${JSON.stringify(event.time)}`);
  let opened = 0;
  await atMost(
    AT_ONCE,
    Array.from({ length: VIEW_BUCKETS }, (_, bucket) => bucket),
    async (bucket) => {
      const written = await openSlot(bucket, day);
      opened += written;
    },
  );
  logger.info('day of the views week opened', { day, opened });
  return { day, opened };
}
