/**
 * A daily worker (lib/routes/workers.ts DAY_OPENER) on the local runtime, as its EventBridge schedule runs it in AWS:
 * at its time of day, UTC, with a scheduled event of that time — and once at start, so that a runtime
 * started after that time has had the day's run. A failed run is tried twice more, as Lambda retries an
 * asynchronous event, then logged.
 */
import { randomUUID } from 'node:crypto';
import type { ScheduledEvent } from 'aws-lambda';
import type { DailyWorker } from '#routes/workers.ts';
import { DAY_MS, dayOf } from '#rules/week.ts';
import { LOCAL_REGION } from '#store/local.ts';

/** The event EventBridge hands a scheduled target. */
export const scheduledEvent = (time: Date, rule: string): ScheduledEvent => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '000000000000',
  time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  region: LOCAL_REGION,
  resources: [`arn:aws:events:${LOCAL_REGION}:000000000000:rule/${rule}`],
  detail: {},
});

/** How long from `now` until the worker's next time of day. */
export function untilNext(at: DailyWorker['at'], now: number): number {
  const today = dayOf(now) * DAY_MS + (at.hour * 60 + at.minute) * 60_000;
  return (today > now ? today : today + DAY_MS) - now;
}

export function startDaily(o: {
  worker: DailyWorker;
  invoke: (event: ScheduledEvent) => Promise<unknown>;
  retryMs: number;
  log: (message: string) => void;
}): { stop: () => Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = async (time: Date) => {
    const event = scheduledEvent(time, o.worker.name);
    for (let attempt = 1; attempt <= 3 && !stopped; attempt++) {
      try {
        await o.invoke(event);
        return;
      } catch (e) {
        o.log(`${o.worker.name} failed (attempt ${attempt} of 3): ${(e as Error).message}`);
        if (attempt < 3) await new Promise((r) => setTimeout(r, o.retryMs));
      }
    }
  };
  const schedule = () => {
    timer = setTimeout(
      () => {
        running = run(new Date());
        schedule();
      },
      untilNext(o.worker.at, Date.now()),
    );
    timer.unref();
  };
  running = run(new Date());
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
