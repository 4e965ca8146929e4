/**
 * Business and health metrics as CloudWatch embedded metric format (Powertools Metrics): log lines
 * CloudWatch turns into metrics, no API call. Each metric is its own line, added and published in one
 * synchronous step on the one instance, so requests running side by side (the local runtime) never mix
 * their dimensions — and no request pays for a new instance (a single-metric instance per call
 * re-reads the environment and makes a console: about a twentieth of an owner list's CPU).
 *   Requests      (status_class)  every answer
 *   StoreFaults                   every 503 for a busy, unreachable or slow store
 *   StoreErrors                   every store answer that was throttling, a 5xx or a network failure,
 *                                 retried or not (lib/store/retry.ts): one metric for every table and
 *                                 function, which the alarm on DynamoDB throttles and errors reads
 *   DecksCreated                  every new deck (not an idempotent replay)
 *   ViewsCounted                  views written to the counters
 * Each with the service's dimension and no other (but Requests' status class): 8 metrics in all, within
 * CloudWatch's 10 free custom metrics. Every combination of dimension values is a custom metric of its own
 * ($0.30 a month each while published): by route they were up to 80 (routes × status classes). The route
 * of an answer is in its access log line.
 * A module of its own (below the HTTP stack and the store, which both count).
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const METRICS_NAMESPACE = 'DeckLibrary';
const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: 'deck-library' });

export const METRIC_NAMES = ['Requests', 'StoreFaults', 'StoreErrors', 'DecksCreated', 'ViewsCounted'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

export function count(name: MetricName, dimensions: Record<string, string>, value = 1): void {
  for (const [k, v] of Object.entries(dimensions)) metrics.addDimension(k, v);
  metrics.addMetric(name, MetricUnit.Count, value).publishStoredMetrics();
}
