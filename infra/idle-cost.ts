/**
 * What the stack costs a month while nobody uses it, read from its synthesised template with the prices
 * of prices.ts: every resource that bills by the month whatever the traffic, line by line, with the
 * bill for an account beyond CloudWatch's always-free tier and for one within it. What bills only by use
 * (requests, invocations, messages, stream reads by Lambda: DynamoDB Streams reads by Lambda triggers
 * are free) is $0 idle and listed as such. Storage (DynamoDB, point-in-time recovery, logs) bills by
 * what is stored, and is $0 for an empty service; its price per GB is shown.
 */
import { PRICES } from './prices.ts';

interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
}
export interface Template {
  Resources: Record<string, Resource>;
}

export interface BillLine {
  item: string;
  count: number;
  /**
   * What the runbook prints for the count of an item that grows with the route table and bills nothing
   * idle (functions, log groups): how it is counted, so that a new route leaves the runbook true.
   */
  per?: string;
  /** US$ a month in an account whose CloudWatch free tier is used up by other things. */
  beyondFreeTier: number;
  /** US$ a month in an account within it. */
  withinFreeTier: number;
  note: string;
}

/** The metrics an alarm reads: one, or each metric of its metric math (expressions read none of their own). */
const alarmMetrics = (alarm: Resource): number => {
  const metrics = alarm.Properties?.Metrics as { MetricStat?: unknown }[] | undefined;
  return metrics ? metrics.filter((m) => m.MetricStat !== undefined).length : 1;
};

/** A dashboard's body with every token replaced by a placeholder, parsed: its widgets' metric rows. */
const dashboardMetrics = (dashboard: Resource): number => {
  const body = dashboard.Properties?.DashboardBody as string | { 'Fn::Join': [string, unknown[]] };
  const text = typeof body === 'string' ? body : body['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'TOKEN')).join('');
  const widgets = (JSON.parse(text) as { widgets: { properties?: { metrics?: unknown[][] } }[] }).widgets;
  // A row that is only an expression reads no metric of its own.
  return widgets.reduce(
    (n, w) => n + (w.properties?.metrics ?? []).filter((row) => !(row.length === 1 && typeof row[0] === 'object')).length,
    0,
  );
};

const round = (n: number) => Math.round(n * 100) / 100;

/** Empty receives a month of an idle queue's Lambda trigger: 5 pollers, a 20-second long poll each, 30 days. */
export const IDLE_QUEUE_RECEIVES = 5 * 3 * 60 * 24 * 30;
/** Whether an event source mapping reads a queue, not a stream (a stream's mapping names where it starts reading). */
const isQueueSource = (r: Resource): boolean => r.Properties?.StartingPosition === undefined;

export function idleBill(template: Template): { lines: BillLine[]; beyondFreeTier: number; withinFreeTier: number } {
  const all = Object.values(template.Resources);
  const ofType = (type: string) => all.filter((r) => r.Type === type);
  const cw = PRICES.cloudwatch;
  const alarmCount = ofType('AWS::CloudWatch::Alarm').reduce((n, a) => n + alarmMetrics(a), 0);
  const dashboards = ofType('AWS::CloudWatch::Dashboard').map(dashboardMetrics);
  const paidDashboards = (free: boolean) =>
    dashboards.filter((m, i) => !free || i >= cw.freeDashboards || m > cw.freeDashboardMetrics).length * cw.dashboard;
  const secrets = ofType('AWS::SecretsManager::Secret').length;
  // A queue's event source mapping long-polls it whether or not anything is sent ("Using Lambda with Amazon SQS": Lambda
  // polls the queue with long polling); AWS publishes no idle figure: 5 pollers' 20-second waits, 648,000 requests a month.
  const queuePolls = all.filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping' && isQueueSource(r)).length;
  const polls = queuePolls * IDLE_QUEUE_RECEIVES;
  const keys = ofType('AWS::KMS::Key').length;
  const lines: BillLine[] = [
    {
      item: 'CloudWatch alarm metrics',
      count: alarmCount,
      beyondFreeTier: round(alarmCount * cw.alarmMetric),
      withinFreeTier: round(Math.max(0, alarmCount - cw.freeAlarmMetrics) * cw.alarmMetric),
      note: `$${cw.alarmMetric.toFixed(2)} each; ${cw.freeAlarmMetrics} free`,
    },
    {
      item: 'CloudWatch dashboards',
      count: dashboards.length,
      beyondFreeTier: round(dashboards.length * cw.dashboard),
      withinFreeTier: round(paidDashboards(true)),
      note: `$${cw.dashboard.toFixed(2)} each; ${cw.freeDashboards} of up to ${cw.freeDashboardMetrics} metrics free${
        dashboards.length ? ` (${dashboards.join(', ')} metrics here)` : ' (none by default: the dashboard setting)'
      }`,
    },
    {
      item: "SQS receives of a queue's Lambda trigger (estimated)",
      count: queuePolls,
      beyondFreeTier: round((polls / 1_000_000) * PRICES.sqs.requestsPerMillion),
      withinFreeTier: round((Math.max(0, polls - PRICES.sqs.freeRequests) / 1_000_000) * PRICES.sqs.requestsPerMillion),
      note: `about ${IDLE_QUEUE_RECEIVES.toLocaleString('en-US')} empty long polls a month each (5 pollers, 20 s waits); $${PRICES.sqs.requestsPerMillion.toFixed(2)} a million beyond ${(PRICES.sqs.freeRequests / 1_000_000).toFixed(0)} million free`,
    },
    {
      item: 'Secrets Manager secrets',
      count: secrets,
      beyondFreeTier: round(secrets * PRICES.secretsManager.secret),
      withinFreeTier: round(secrets * PRICES.secretsManager.secret),
      note: `$${PRICES.secretsManager.secret.toFixed(2)} each`,
    },
    {
      item: 'KMS customer-managed keys',
      count: keys,
      beyondFreeTier: round(keys * PRICES.kms.customerManagedKey),
      withinFreeTier: round(keys * PRICES.kms.customerManagedKey),
      note: `$${PRICES.kms.customerManagedKey.toFixed(2)} each`,
    },
    ...(
      [
        ['Lambda functions', 'AWS::Lambda::Function', 'by request and duration', 'one per route and worker'],
        ['Lambda event source mappings (DynamoDB stream)', 'STREAM_MAPPING', 'stream reads by Lambda are free', undefined],
        ['API Gateway HTTP APIs', 'AWS::ApiGatewayV2::Api', 'by request', undefined],
        ['SQS queues', 'AWS::SQS::Queue', 'by request', undefined],
        ['SNS topics', 'AWS::SNS::Topic', 'by message', undefined],
        [
          'CloudFront distributions',
          'AWS::CloudFront::Distribution',
          'by request and data out (docs/operations.md, "The edge")',
          undefined,
        ],
        ['CloudFront Functions', 'AWS::CloudFront::Function', 'by invocation: $0.10 per million', undefined],
        [
          'CloudWatch log groups',
          'AWS::Logs::LogGroup',
          `by data stored: $${cw.logsStoredGb.toFixed(2)} per GB`,
          "one per function and the API's access log",
        ],
        [
          'DynamoDB tables (on demand, point-in-time recovery)',
          'AWS::DynamoDB::GlobalTable',
          `by request and data stored: $${PRICES.dynamodb.storageGb.toFixed(2)} per GB beyond ${PRICES.dynamodb.freeStorageGb} GB free, PITR $${PRICES.dynamodb.pitrGb.toFixed(2)} per GB`,
          undefined,
        ],
      ] as const
    ).map(([item, type, note, per]) => ({
      item,
      count:
        type === 'STREAM_MAPPING' ? ofType('AWS::Lambda::EventSourceMapping').filter((r) => !isQueueSource(r)).length : ofType(type).length,
      ...(per ? { per } : {}),
      beyondFreeTier: 0,
      withinFreeTier: 0,
      note,
    })),
  ];
  const sum = (k: 'beyondFreeTier' | 'withinFreeTier') => round(lines.reduce((n, l) => n + l[k], 0));
  return { lines, beyondFreeTier: sum('beyondFreeTier'), withinFreeTier: sum('withinFreeTier') };
}

/** The bill as the Markdown table docs/operations.md prints. */
export const billTable = ({ lines, beyondFreeTier, withinFreeTier }: ReturnType<typeof idleBill>): string =>
  [
    '| item | count | $ / month beyond the free tier | $ / month within it | how it bills |',
    '|---|---|---|---|---|',
    ...lines.map(
      (l) => `| ${l.item} | ${l.per ?? l.count} | ${l.beyondFreeTier.toFixed(2)} | ${l.withinFreeTier.toFixed(2)} | ${l.note} |`,
    ),
    `| **total** | | **${beyondFreeTier.toFixed(2)}** | **${withinFreeTier.toFixed(2)}** | |`,
  ].join('\n');
