/**
 * Business and health metrics as CloudWatch embedded metric format (Powertools Metrics): log lines
 * CloudWatch turns into metrics, no API call. Each metric is its own line, added and published in one
 * synchronous step on the one instance, so requests running side by side (the local runtime) never mix
 * their dimensions — and no request pays for a new instance (a single-metric instance per call
 * re-reads the environment and makes a console: about a twentieth of an owner list's CPU).
 *   Requests      (route, status_class)  every answer
 *   StoreFaults   (route)                every 503 for a busy, unreachable or slow store
 *   DecksCreated  (route)                every new deck (not an idempotent replay)
 *   ViewsCounted  (route)                views written to the counters
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const METRICS_NAMESPACE = 'DeckLibrary';
const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: 'deck-library' });

export const METRIC_NAMES = ['Requests', 'StoreFaults', 'DecksCreated', 'ViewsCounted'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

export function count(name: MetricName, dimensions: Record<string, string>, value = 1): void {
  for (const [k, v] of Object.entries(dimensions)) metrics.addDimension(k, v);
  metrics.addMetric(name, MetricUnit.Count, value).publishStoredMetrics();
}
