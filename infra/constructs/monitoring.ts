/**
 * What on-call watches: an SNS topic for alarms (e-mailed when an address is given), the alarms of
 * docs/operations.md, and one dashboard. Thresholds come from the settings.
 *
 * Built to cost nothing while the service is idle (docs/operations.md, "What an idle stack costs";
 * infra/idle-cost.ts computes it from the template): at most 10 alarm metrics — within CloudWatch's
 * always-free 10 — by alarming on what AWS already aggregates (the account's Lambda errors and
 * throttles, the API's metrics) and on one metric of the service's own (StoreErrors: every throttling,
 * 5xx or network failure of DynamoDB, whatever the table or function), and a dashboard within the free
 * 50 metrics when the settings ask for one (it costs $3 a month once the account's 3 free ones are used).
 *
 * The topic is not encrypted: an alarm's message holds its name, state and metric, no customer data, and
 * CloudWatch cannot publish to a topic encrypted with the AWS-managed key `alias/aws/sns` (its key policy
 * cannot be changed to let cloudwatch.amazonaws.com use it: Amazon SNS Developer Guide, "Enable
 * compatibility between event sources from AWS services and encrypted topics"); a customer-managed key
 * that allows it costs $1 a month, the whole idle budget. The topic's policy lets CloudWatch publish —
 * only for alarms of this account and region — beside the Deny of any request without TLS.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
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
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '#metrics';
import { GIVE_UP, WORKERS, type Worker } from '#routes/workers.ts';
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
/** The public reads whose latency is the product: the shared read and the search. */
export const LATENCY_WATCHED = ['readSharedDeck', 'searchDecks'] as const;

/** A metric of the account's Lambda functions as a whole (no dimension: AWS aggregates it). */
const accountLambda = (metricName: string, statistic = 'Sum') =>
  new Metric({ namespace: 'AWS/Lambda', metricName, statistic, period: FIVE_MINUTES });
/** A metric of the service's own (embedded metric format), with its one dimension set. */
const own = (metricName: string) =>
  new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service: 'deck-library' },
    statistic: 'Sum',
    period: FIVE_MINUTES,
  });

export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard?: Dashboard;

  constructor(scope: Construct, id: string, { api, functions, workers, discardedChanges, tables, settings }: MonitoringProps) {
    super(scope, id);
    const { thresholds } = settings;
    const stack = Stack.of(this);
    this.topic = new Topic(this, 'Alarms', { displayName: 'Deck Library alarms', enforceSSL: true });
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        // Only on behalf of this account's alarms in this region (no confused deputy).
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:cloudwatch:${stack.region}:${stack.account}:alarm:*` },
        },
      }),
    );
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions::AwsSolutions-SNS2',
      reason:
        'Alarm messages hold no customer data; CloudWatch cannot publish to a topic under the AWS-managed SNS key, and a customer-managed key ($1/month) is the whole idle budget (infra/constructs/monitoring.ts).',
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

    // 1–2: the API's 5xx rate (two metrics).
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
    // 3–4: every function's errors and throttles, as the account's totals (AWS aggregates them).
    const errors = accountLambda('Errors');
    const throttles = accountLambda('Throttles');
    alarm('FunctionErrors', errors, 1, 'a function failed (an unhandled error or a timeout): its log group names it');
    alarm('FunctionThrottles', throttles, 1, 'invocations throttled (concurrency)');
    // 5: DynamoDB throttling, 5xx and unreachable, on any table, as the functions met them.
    const storeErrors = own('StoreErrors');
    alarm('StoreErrors', storeErrors, 1, 'DynamoDB throttled, failed (5xx) or was unreachable (each attempt, retried or not)');
    // 6–7: the p99 of the shared read and the search.
    const p99 = LATENCY_WATCHED.flatMap((name) => {
      const fn = functions.get(name);
      if (!fn) return [];
      const metric = fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99' });
      alarm(
        `${name[0]?.toUpperCase()}${name.slice(1)}LatencyP99`,
        metric,
        thresholds.p99Ms,
        `${name}: p99 duration over ${thresholds.p99Ms} ms`,
      );
      return [metric];
    });
    // 8–10: the store-change workers: a backlog (records waiting over a minute: a batch keeps failing and
    // folds and purges wait behind it), and a record given up on (past its worker's record age or retries, or
    // failing for good: the queue's alarm). The erasure worker's steps wait (its own timeout: SETTLE_MS a step),
    // so its backlog is no sign; the queue's alarm is how a stuck erasure shows — an eleventh alarm metric
    // would be the first to cost, $0.10 a month.
    const prompt = new Set(WORKERS.filter((w: Worker) => w.timeoutSeconds === undefined).map((w) => w.name as string));
    const backlogs = [...workers]
      .filter(([name]) => prompt.has(name))
      .map(([name, fn]) => {
        const metric = new Metric({
          namespace: 'AWS/Lambda',
          metricName: 'IteratorAge',
          dimensionsMap: { FunctionName: fn.functionName },
          statistic: 'Maximum',
          period: FIVE_MINUTES,
        });
        alarm(
          `${name[0]?.toUpperCase()}${name.slice(1)}Backlog`,
          metric,
          60_000,
          `${name}: store changes waiting over a minute to be handled`,
        );
        return metric;
      });
    const discarded = discardedChanges.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' });
    alarm(
      'DiscardedChanges',
      discarded,
      1,
      `store changes given up on after ${GIVE_UP.maxRecordAgeSeconds / 3600} hour(s) or ${GIVE_UP.maxRetries} retries of failures (the stream mappings' bounds), an erasure step after an hour, or a scheduled or asynchronous invocation after Lambda's retries (recorded in the discarded-changes queue)`,
    );

    // The dashboard (when the settings ask for it): the alarms' metrics and the load behind them, within
    // the free 50 metrics.
    if (!settings.dashboard) return;
    const tableMetric = (t: TableV2, metricName: string) =>
      new Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: t.tableName },
        statistic: 'Sum',
        period: FIVE_MINUTES,
      });
    // A dashboard's name is the account's (CloudWatch dashboards are global): the stack's name and its region.
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `${api.stack.stackName}-${api.stack.region}-operations` });
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Requests and 5xx (%)',
        left: [api.metricCount({ period: FIVE_MINUTES })],
        right: [serverErrorRate],
        width: 12,
      }),
      new GraphWidget({ title: 'p99 duration: shared read, search (ms)', left: p99, width: 12 }),
      new GraphWidget({
        title: 'Functions (all): invocations, errors, throttles, concurrency',
        left: [accountLambda('Invocations'), errors, throttles],
        right: [accountLambda('ConcurrentExecutions', 'Maximum')],
        width: 12,
      }),
      new GraphWidget({
        title: 'The service: store errors and faults (503), decks created, views counted',
        left: [storeErrors, own('StoreFaults')],
        right: [own('DecksCreated'), own('ViewsCounted')],
        width: 12,
      }),
      ...tables.map(
        (t) =>
          new GraphWidget({
            title: `${t.node.id}: units consumed, throttle events`,
            left: [tableMetric(t, 'ConsumedReadCapacityUnits'), tableMetric(t, 'ConsumedWriteCapacityUnits')],
            right: [tableMetric(t, 'ReadThrottleEvents'), tableMetric(t, 'WriteThrottleEvents')],
            width: 12,
          }),
      ),
      new GraphWidget({ title: 'Store changes: backlog (ms), given up on', left: backlogs, right: [discarded], width: 24 }),
    );
  }
}
