/**
 * Business and health metrics as CloudWatch embedded metric format (Powertools Metrics): log lines
 * CloudWatch turns into metrics, no API call. Each metric is its own line (a single-metric instance),
 * so requests running side by side (the local runtime) never mix their dimensions.
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
  const single = metrics.singleMetric();
  for (const [k, v] of Object.entries(dimensions)) single.addDimension(k, v);
  single.addMetric(name, MetricUnit.Count, value);
}
