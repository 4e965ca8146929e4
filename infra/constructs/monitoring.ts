/**
 * What on-call watches: an SNS topic for alarms (e-mailed when an address is given), the alarms of
 * docs/operations.md, and one dashboard with the same metrics. Thresholds come from the settings.
 */
import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Alias } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRIC_NAMES, METRICS_NAMESPACE } from '#http/metrics.ts';
import type { OpsSettings } from '../settings.ts';

export interface MonitoringProps {
  api: HttpApi;
  functions: ReadonlyMap<string, LambdaFunction>;
  /** The store-change workers, and the queue where the batches they gave up on are recorded. */
  workers: ReadonlyMap<string, LambdaFunction>;
  discardedChanges: IQueue;
  tables: TableV2[];
  settings: OpsSettings;
}

const FIVE_MINUTES = Duration.minutes(5);
const OPERATIONS = ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems'];
/** The public reads whose latency is the product: the shared read and the search. */
export const LATENCY_WATCHED = ['readSharedDeck', 'searchDecks'] as const;

export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, { api, functions, workers, discardedChanges, tables, settings }: MonitoringProps) {
    super(scope, id);
    const { thresholds } = settings;
    this.topic = new Topic(this, 'Alarms', {
      displayName: 'Deck Library alarms',
      enforceSSL: true,
      masterKey: Alias.fromAliasName(this, 'SnsKey', 'alias/aws/sns'),
    });
    if (settings.alarmEmail) this.topic.addSubscription(new EmailSubscription(settings.alarmEmail));
    const action = new SnsAction(this.topic);
    const alarm = (name: string, metric: IMetric, threshold: number, description: string) => {
      const a = new Alarm(this, name, {
        alarmDescription: `${description} (docs/operations.md#${name.toLowerCase()})`,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(action);
      a.addOkAction(action);
      this.alarms.push(a);
      return a;
    };

    const serverErrorRate = new MathExpression({
      expression: '100 * errors / MAX([requests, 1])',
      usingMetrics: {
        errors: api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
        requests: api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' }),
      },
      label: 'API 5xx (%)',
      period: FIVE_MINUTES,
    });
    alarm(
      'ApiServerErrors',
      serverErrorRate,
      thresholds.serverErrorPercent,
      `API 5xx answers over ${thresholds.serverErrorPercent}% of all`,
    );

    for (const [name, fn] of functions) {
      const Name = `${name[0]?.toUpperCase()}${name.slice(1)}`;
      alarm(
        `${Name}Errors`,
        fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        1,
        `${name}: the function failed (an unhandled error or a timeout)`,
      );
      alarm(
        `${Name}Throttles`,
        fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
        1,
        `${name}: invocations throttled (concurrency)`,
      );
    }
    for (const name of LATENCY_WATCHED) {
      const fn = functions.get(name);
      if (!fn) continue;
      const Name = `${name[0]?.toUpperCase()}${name.slice(1)}`;
      alarm(
        `${Name}LatencyP99`,
        fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99' }),
        thresholds.p99Ms,
        `${name}: p99 duration over ${thresholds.p99Ms} ms`,
      );
    }
    for (const table of tables) {
      const Name = table.node.id.replace(/Table$/, '');
      alarm(
        `${Name}ThrottledRequests`,
        table.metricThrottledRequestsForOperations({ operations: OPERATIONS as never, period: FIVE_MINUTES }),
        1,
        `${Name} table: requests throttled by DynamoDB`,
      );
      alarm(
        `${Name}SystemErrors`,
        table.metricSystemErrorsForOperations({ operations: OPERATIONS as never, period: FIVE_MINUTES }),
        1,
        `${Name} table: DynamoDB system errors (5xx)`,
      );
    }
    // The workers: a backlog (records waiting longer than a minute: a batch keeps failing, and folds and
    // purges wait behind it) and any batch given up on (24 hours of failures).
    for (const [name, fn] of workers) {
      const Name = `${name[0]?.toUpperCase()}${name.slice(1)}`;
      alarm(
        `${Name}Backlog`,
        new Metric({
          namespace: 'AWS/Lambda',
          metricName: 'IteratorAge',
          dimensionsMap: { FunctionName: fn.functionName },
          statistic: 'Maximum',
          period: FIVE_MINUTES,
        }),
        60_000,
        `${name}: store changes waiting over a minute to be handled`,
      );
    }
    alarm(
      'DiscardedChanges',
      discardedChanges.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      1,
      'store changes given up on after 24 hours of failures (recorded in the discarded-changes queue)',
    );
    const concurrency = new Metric({
      namespace: 'AWS/Lambda',
      metricName: 'ConcurrentExecutions',
      statistic: 'Maximum',
      period: Duration.minutes(1),
    });
    alarm('ConcurrencyNearCeiling', concurrency, thresholds.concurrency, `concurrent executions at ${thresholds.concurrency} or more`);

    const dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `${api.stack.stackName}-operations` });
    const byFunction = (metric: (fn: LambdaFunction) => IMetric) => [...functions.values()].map(metric);
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Requests and 5xx',
        left: [api.metricCount({ period: FIVE_MINUTES })],
        right: [serverErrorRate],
        width: 12,
      }),
      new GraphWidget({
        title: 'p99 duration: shared read, search (ms)',
        left: LATENCY_WATCHED.flatMap((n) =>
          functions.get(n) ? [(functions.get(n) as LambdaFunction).metricDuration({ statistic: 'p99', period: FIVE_MINUTES })] : [],
        ),
        width: 12,
      }),
      new GraphWidget({ title: 'Function errors', left: byFunction((fn) => fn.metricErrors({ period: FIVE_MINUTES })), width: 12 }),
      new GraphWidget({ title: 'Function throttles', left: byFunction((fn) => fn.metricThrottles({ period: FIVE_MINUTES })), width: 12 }),
      // One graph per table and kind: each is a sum over operations, whose inner ids may not repeat in a graph.
      ...tables.flatMap((t) => [
        new GraphWidget({
          title: `${t.node.id}: throttled requests`,
          left: [t.metricThrottledRequestsForOperations({ operations: OPERATIONS as never, period: FIVE_MINUTES })],
          width: 6,
        }),
        new GraphWidget({
          title: `${t.node.id}: system errors`,
          left: [t.metricSystemErrorsForOperations({ operations: OPERATIONS as never, period: FIVE_MINUTES })],
          width: 6,
        }),
      ]),
      new GraphWidget({ title: 'Concurrent executions', left: [concurrency], width: 12 }),
      new GraphWidget({
        title: 'Store faults, decks created, views counted (embedded metrics)',
        left: METRIC_NAMES.filter((name) => name !== 'Requests').map(
          (metricName) =>
            new MathExpression({
              expression: `SUM(SEARCH('{${METRICS_NAMESPACE},service,route} MetricName="${metricName}"', 'Sum', 300))`,
              label: metricName,
              period: FIVE_MINUTES,
            }),
        ),
        width: 24,
      }),
    );
  }
}
