/**
 * Views as the counting function meets them, for the tests of what counts them: the access log's lines of shared
 * reads handed to countViews as CloudWatch Logs' subscription hands them (one log event a view, logged at `at`),
 * run as the counting function (asRoute: held to its grants); and a runtime of a test's own started away from
 * midnight UTC (the views' days are UTC days), this process held to its grants as a worker.
 */
import { DAY_OPENER, VIEW_SUBSCRIPTION } from '#routes/workers.ts';
import { countViews, encodeLogs, logsDelivery } from '#workers/access-log-views.ts';
import { asRoute, installGrantsGuard } from '../../infra/local/grants-guard.ts';
import { untilNext } from '../../infra/local/schedule.ts';
import { type OwnRuntime, ownRuntime } from './runtime.ts';

/** `views` (share slug → views) logged at `at`, handed to countViews in one delivery of log stream `stream`. */
export async function logViews(views: Iterable<readonly [string, number]>, at: number, stream: string): Promise<void> {
  const logEvents = [...views].flatMap(([slug, n]) =>
    Array.from({ length: n }, (_, i) => ({
      id: `${slug}-${at}-${i}`,
      timestamp: at,
      message: JSON.stringify({ routeKey: 'GET /api/v1/decks/{share_slug}', path: `/api/v1/decks/${slug}`, status: '200' }),
    })),
  );
  await asRoute(VIEW_SUBSCRIPTION, () =>
    countViews(encodeLogs(logsDelivery({ owner: 'test', logGroup: 'access', logStream: stream }, VIEW_SUBSCRIPTION.name, logEvents))),
  );
}

/**
 * A runtime of the test's own whose workers follow the stream at once and whose access log is delivered every 0.3 s,
 * started at least `clearOfMidnight` ms before midnight UTC (a run that would cross it starts after it); this
 * process's calls as a worker (asRoute) then held to their grants and recorded as used.
 */
export async function viewsRuntime(name: string, clearOfMidnight: number): Promise<OwnRuntime> {
  const toMidnight = untilNext(DAY_OPENER.at, Date.now());
  if (toMidnight < clearOfMidnight) await new Promise((r) => setTimeout(r, toMidnight + 1_000));
  const runtime = await ownRuntime(name, { STREAM_BATCH_WINDOW_MS: '0', ACCESS_LOG_DELIVERY_MS: '300' });
  installGrantsGuard();
  return runtime;
}
