/**
 * The views in a batch of the API's access log (contract §9.5): each line of a read that counts a view
 * (lib/routes/workers.ts VIEW_SUBSCRIPTION: its routes, answered 200) is one view of the deck its path names, on
 * the UTC day of the log event's timestamp (CloudWatch Logs' `timestamp`: when the line was logged).
 * CloudWatch Logs hands the batch over gzipped and base64-encoded; a batch's id is a hash of its log
 * events' ids, the same when Lambda retries it (lib/store/view-log.ts logs it once).
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { CloudWatchLogsDecodedData, CloudWatchLogsEvent, CloudWatchLogsLogEvent } from 'aws-lambda';
import { logger } from '#logger';
import { count } from '#metrics';
import { pathMatcher } from '#routes/route.ts';
import { countsAView, VIEW_SUBSCRIPTION } from '#routes/workers.ts';
import { isShareSlug } from '#rules/ids.ts';
import { dayOf } from '#rules/week.ts';
import { logViewBatch } from '#store/view-log.ts';

/** Each counted route's path parameters, read from a line's path as the gateway read them. */
const matchers = VIEW_SUBSCRIPTION.routes.map((route) => pathMatcher(route.path));

/** The share slug a counted read's path names, or undefined. */
function slugOf(path: unknown): string | undefined {
  if (typeof path !== 'string') return undefined;
  for (const { match } of matchers) {
    const slug = match(path)?.share_slug;
    if (slug !== undefined) return isShareSlug(slug) ? slug : undefined;
  }
  return undefined;
}

/** A batch's id and its views by share slug, each by the UTC day it was served. */
export function viewsOf(data: CloudWatchLogsDecodedData): { id: string; views: Map<string, Map<number, number>> } {
  const views = new Map<string, Map<number, number>>();
  for (const event of data.logEvents) {
    let line: unknown;
    try {
      line = JSON.parse(event.message);
    } catch {
      continue;
    }
    if (!countsAView(line)) continue;
    const slug = slugOf((line as { path?: unknown }).path);
    if (!slug) continue;
    const days = views.get(slug) ?? new Map<number, number>();
    const day = dayOf(event.timestamp);
    views.set(slug, days.set(day, (days.get(day) ?? 0) + 1));
  }
  const id = createHash('sha256')
    .update(data.logEvents.map((e) => e.id).join('\n'))
    .digest('base64url')
    .slice(0, 32);
  return { id, views };
}

export const decodeLogs = (event: CloudWatchLogsEvent): CloudWatchLogsDecodedData =>
  JSON.parse(gunzipSync(Buffer.from(event.awslogs.data, 'base64')).toString('utf8'));
/** A delivery of log events to a subscription filter, as CloudWatch Logs makes it (the local access log and the bench make them). */
export const logsDelivery = (
  source: Pick<CloudWatchLogsDecodedData, 'owner' | 'logGroup' | 'logStream'>,
  subscriptionFilter: string,
  logEvents: CloudWatchLogsLogEvent[],
): CloudWatchLogsDecodedData => ({ messageType: 'DATA_MESSAGE', ...source, subscriptionFilters: [subscriptionFilter], logEvents });
/** The event CloudWatch Logs hands a subscribed function. */
export const encodeLogs = (data: CloudWatchLogsDecodedData): CloudWatchLogsEvent => ({
  awslogs: { data: gzipSync(JSON.stringify(data)).toString('base64') },
});

/** The countViews function: logs the batch's views once; a failure is thrown, and Lambda retries the batch. */
export async function countViews(event: CloudWatchLogsEvent): Promise<void> {
  const data = decodeLogs(event);
  if (data.messageType !== 'DATA_MESSAGE') return; // CloudWatch's check that the destination answers
  const { id, views } = viewsOf(data);
  const outcome = await logViewBatch(id, views);
  const total = [...views.values()].reduce((a, days) => a + [...days.values()].reduce((b, n) => b + n, 0), 0);
  if (outcome === 'logged' && total > 0) count('ViewsCounted', {}, total);
  else if (outcome === 'already') logger.info('view batch already logged', { batch: id });
}
