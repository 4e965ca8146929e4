/**
 * What operations get from the synthesised template: alarms on every kind of failure docs/operations.md
 * names, to one SNS topic CloudWatch can publish to, a dashboard, an idle bill within its goal, the HTTP
 * API access log in its own fields, per-route throttles from the route table, no secret in any
 * function's configuration or the template (and the cursor keys readable only by the functions that use
 * them), an optional concurrency reservation and tracing switch — defaults first, then the context
 * values that change them.
 */
import { globSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { CORS, ROUTES, type Route, throttleClass } from '#routes';
import { DAILY_WORKERS, GIVE_UP, subscriptionPattern, VIEW_SUBSCRIPTION, WORKERS } from '#routes/workers.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { ACCESS_LOG_FIELDS } from '../../infra/access-log-fields.ts';
import { buildApp } from '../../infra/app.ts';
import { LATENCY_WATCHED } from '../../infra/constructs/monitoring.ts';
import { floodCost, floodTable, LOG_BYTES, RENDER_MS } from '../../infra/flood-cost.ts';
import { GUARD_EXCEPTIONS } from '../../infra/guard.ts';
import { billTable, idleBill } from '../../infra/idle-cost.ts';
import { PRICES } from '../../infra/prices.ts';
import { pascal } from '../../infra/stack.ts';
import { readStack } from '../../infra/template.ts';
import { legalCode } from '../support/decks.ts';
import { ACCOUNT, evaluate, REGION, resolve } from '../support/iam.ts';
import { inFunction } from '../support/in-function.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
type Resources = Record<string, any>;
const routes = (ROUTES as readonly Route[]).filter((r) => r.path !== '$default');
const dirs: string[] = [];

function synth(context: Record<string, unknown> = {}): Resources {
  const dir = mkdtempSync(join(tmpdir(), 'deck-library-ops-'));
  dirs.push(dir);
  // Read for the template only: the guard's rules are run by the stack test's synth, and the functions' code
  // is not built (CDK's `aws:cdk:bundling-stacks` context: no stack bundles) — the stack test builds it.
  const { app, stack } = buildApp(new App({ outdir: dir, context: { 'aws:cdk:bundling-stacks': [], ...context } }), { guard: false });
  app.synth();
  // The stack with its nested stacks (the functions'), as one template.
  return readStack(dir, stack.stackName).merged.Resources;
}
const of = (r: Resources, type: string) => Object.entries(r).filter(([, x]) => x.Type === type);
const functionsOf = (r: Resources) => of(r, 'AWS::Lambda::Function');

let plain: Resources;
let tuned: Resources;
/** With the capped routes' reservation turned on (an account whose quota can spare it: docs/operations.md). */
let reserving: Resources;
beforeAll(() => {
  plain = synth();
  reserving = synth({ 'deck-library:cappedConcurrency': 5 });
  tuned = synth({
    'deck-library:reservedConcurrency': 3,
    'deck-library:tracing': 'true',
    'deck-library:sourceMaps': 'true',
    'deck-library:alarmEmail': 'oncall@example.com',
    'deck-library:writeRateLimit': 5,
    'deck-library:alarmP99Ms': 750,
    'deck-library:dashboard': 'true',
  });
}, 300_000);
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('alarms, topic and dashboard', () => {
  /** The alarm's metrics: namespace, name and dimension names (metric math: each metric it reads). */
  const metricsOf = (a: Resources) =>
    a.Metrics
      ? a.Metrics.filter((m: Resources) => m.MetricStat).map((m: Resources) => ({
          namespace: m.MetricStat.Metric.Namespace,
          name: m.MetricStat.Metric.MetricName,
          dimensions: (m.MetricStat.Metric.Dimensions ?? []).map((d: { Name: string }) => d.Name),
        }))
      : [{ namespace: a.Namespace, name: a.MetricName, dimensions: (a.Dimensions ?? []).map((d: { Name: string }) => d.Name) }];

  it("each kind of failure the runbook names has its alarm, on what AWS already aggregates or on the service's one store metric", () => {
    const alarms = Object.fromEntries(
      of(plain, 'AWS::CloudWatch::Alarm').map(([id, a]) => [id.replace(/^Monitoring|[0-9A-F]{8}$/g, ''), metricsOf(a.Properties)]),
    );
    expect(alarms).toEqual({
      // The API's 5xx rate.
      ApiServerErrors: [
        { namespace: 'AWS/ApiGateway', name: '5xx', dimensions: ['ApiId'] },
        { namespace: 'AWS/ApiGateway', name: 'Count', dimensions: ['ApiId'] },
      ],
      // Every function's errors and throttles: the account's totals (no dimension).
      FunctionErrors: [{ namespace: 'AWS/Lambda', name: 'Errors', dimensions: [] }],
      FunctionThrottles: [{ namespace: 'AWS/Lambda', name: 'Throttles', dimensions: [] }],
      // DynamoDB throttling, 5xx and unreachable, on both tables: the service's own metric, one dimension set.
      StoreErrors: [{ namespace: 'DeckLibrary', name: 'StoreErrors', dimensions: ['service'] }],
      ReadSharedDeckLatencyP99: [{ namespace: 'AWS/Lambda', name: 'Duration', dimensions: ['FunctionName'] }],
      SearchDecksLatencyP99: [{ namespace: 'AWS/Lambda', name: 'Duration', dimensions: ['FunctionName'] }],
      StoreChangesBacklog: [{ namespace: 'AWS/Lambda', name: 'IteratorAge', dimensions: ['FunctionName'] }],
      // Views waiting in the view log (its worker failing): the other stream worker's backlog.
      ViewLogBacklog: [{ namespace: 'AWS/Lambda', name: 'IteratorAge', dimensions: ['FunctionName'] }],
      DiscardedChanges: [{ namespace: 'AWS/SQS', name: 'ApproximateNumberOfMessagesVisible', dimensions: ['QueueName'] }],
    });
    for (const name of LATENCY_WATCHED) expect(Object.keys(alarms)).toContain(`${pascal(name)}LatencyP99`);
    const p99 = of(plain, 'AWS::CloudWatch::Alarm').find(([id]) => id.includes('SearchDecksLatencyP99'))?.[1].Properties;
    expect([p99?.Threshold, p99?.ExtendedStatistic]).toEqual([1000, 'p99']);
    expect(of(plain, 'AWS::SNS::Subscription')).toHaveLength(0);
  });

  it("the discarded-changes alarm says the mappings' own bounds (an hour's record age, 500 retries), as the mappings have them", () => {
    const description = of(plain, 'AWS::CloudWatch::Alarm').find(([id]) => id.includes('DiscardedChanges'))?.[1].Properties
      .AlarmDescription;
    // The stream workers' mappings (the webhook deliveries' queue has its own bounds: its dead-letter queue's receives).
    const mappings = of(plain, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties.StartingPosition !== undefined);
    expect(mappings.length).toBe(WORKERS.length);
    // Every mapping gives up after the same record age (the erasure's steps retry more often within it).
    expect([...new Set(mappings.map(([, m]) => m.Properties.MaximumRecordAgeInSeconds))]).toEqual([GIVE_UP.maxRecordAgeSeconds]);
    expect(mappings.map(([, m]) => m.Properties.MaximumRetryAttempts)).toContain(GIVE_UP.maxRetries);
    expect(description).toContain(`after ${GIVE_UP.maxRecordAgeSeconds / 3600} hour(s) or ${GIVE_UP.maxRetries} retries`);
    expect(description).not.toMatch(/24 hours/);
  });

  it("docs/operations.md's table of the rules that fail on purpose is infra/guard.ts's, rule by rule and reason by reason", () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/operations.md'), 'utf8');
    const table = doc.slice(doc.indexOf('The rules that fail on purpose are these'), doc.indexOf("cdk-nag's CloudFront findings"));
    const rows = [...table.matchAll(/^\| `(\w+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(rows)).toEqual(GUARD_EXCEPTIONS);
    // The rules' count and those that fail on purpose, as the paragraph above the table says them.
    const rules = globSync('node_modules/@cdklabs/cdk-validator-cfnguard/rules/control-tower/cfn-guard/**/*.guard').length;
    expect(doc.replace(/\s+/g, ' ')).toContain(`of the package's ${rules} rules, the ${rows.length} below fail on purpose`);
  });

  it('the dashboard only when the settings ask for it, within the free 50 metrics', () => {
    expect(of(plain, 'AWS::CloudWatch::Dashboard')).toHaveLength(0);
    expect(of(tuned, 'AWS::CloudWatch::Dashboard')).toHaveLength(1);
    const line = idleBill({ Resources: tuned }).lines.find((l) => l.item === 'CloudWatch dashboards');
    expect(line?.withinFreeTier).toBe(0);
    expect(Number(/\((\d+) metrics here\)/.exec(line?.note ?? '')?.[1])).toBeLessThanOrEqual(50);
  });

  it('every alarm goes to the one topic, which CloudWatch can publish to: no key to grant, and a topic policy that allows it (evaluated as IAM does) beside the TLS Deny', () => {
    const [[topicId, topic]] = of(plain, 'AWS::SNS::Topic') as [[string, Resources]];
    for (const [id, a] of of(plain, 'AWS::CloudWatch::Alarm')) {
      expect(a.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(a.Properties.OKActions, id).toEqual([{ Ref: topicId }]);
    }
    // Not encrypted: a topic under the AWS-managed SNS key can never let CloudWatch use the key.
    expect(topic.Properties.KmsMasterKeyId).toBeUndefined();
    const topicArn = `arn:aws:sns:${REGION}:${ACCOUNT}:deck-library-alarms`;
    const [[, policy]] = of(plain, 'AWS::SNS::TopicPolicy') as [[string, Resources]];
    expect(policy.Properties.Topics).toEqual([{ Ref: topicId }]);
    const document = resolve(policy.Properties.PolicyDocument, { [topicId]: topicArn }) as { Statement: Record<string, unknown>[] };
    const alarmArn = `arn:aws:cloudwatch:${REGION}:${ACCOUNT}:alarm:DeckLibrary-StoreErrors`;
    const publish = (context: Record<string, string | boolean>) =>
      evaluate(document, { principal: { Service: 'cloudwatch.amazonaws.com' }, action: 'sns:Publish', resource: topicArn, context });
    const asCloudWatch = { 'aws:SourceAccount': ACCOUNT, 'aws:SourceArn': alarmArn, 'aws:SecureTransport': true };
    expect(publish(asCloudWatch)).toBe('Allow');
    // Not for another account's alarms (no confused deputy), nor without TLS, nor for anyone else.
    expect(
      publish({ ...asCloudWatch, 'aws:SourceAccount': '999999999999', 'aws:SourceArn': alarmArn.replace(ACCOUNT, '999999999999') }),
    ).toBe('ImplicitDeny');
    expect(publish({ ...asCloudWatch, 'aws:SecureTransport': false })).toBe('Deny');
    expect(
      evaluate(document, {
        principal: { Service: 'events.amazonaws.com' },
        action: 'sns:Publish',
        resource: topicArn,
        context: asCloudWatch,
      }),
    ).toBe('ImplicitDeny');
  });

  it('thresholds and the e-mail subscription come from context values', () => {
    const p99 = of(tuned, 'AWS::CloudWatch::Alarm').find(([id]) => id.includes('SearchDecksLatencyP99'))?.[1];
    expect(p99.Properties.Threshold).toBe(750);
    const [[, sub]] = of(tuned, 'AWS::SNS::Subscription') as [[string, Resources]];
    expect(sub.Properties).toMatchObject({ Protocol: 'email', Endpoint: 'oncall@example.com' });
  });
});

describe('what an idle stack costs', () => {
  it('at most $1.00 a month beyond the free tier and $0.00 within it, computed from the template; docs/operations.md prints that bill', () => {
    const bill = idleBill({ Resources: plain });
    console.log(billTable(bill));
    expect(bill.withinFreeTier).toBe(0);
    // The webhook deliveries' queue trigger long-polls an idle queue (estimated: infra/idle-cost.ts): within SQS's free
    // million requests, and the one line over the $1.00 the rest holds to beyond it.
    const polls = bill.lines.find((l) => l.item.startsWith('SQS receives'));
    expect(polls?.count).toBe(1);
    expect(polls?.beyondFreeTier).toBeLessThanOrEqual(0.3);
    expect(bill.beyondFreeTier - (polls?.beyondFreeTier ?? 0)).toBeLessThanOrEqual(1);
    const runbook = readFileSync(join(import.meta.dirname, '../../docs/operations.md'), 'utf8');
    expect(runbook).toContain(billTable(bill));
    // Its words of the alarms are the template's: how many, and how many metrics they read (issue 53: "Nine" of 10).
    const alarms = of(plain, 'AWS::CloudWatch::Alarm').length;
    const metrics = bill.lines.find((l) => l.item === 'CloudWatch alarm metrics')?.count;
    expect(runbook).toContain(`The stack has ${alarms} alarms on ${metrics} metrics`);
    expect(runbook).toContain(`The stack's ${alarms} alarms read ${metrics} metrics, all it has`);
    // The views' subscription filter as docs/data-model.md shows it: the one the template has (both routes that count).
    const filter = of(plain, 'AWS::Logs::SubscriptionFilter')[0]?.[1].Properties.FilterPattern as string;
    expect(filter).toBe(subscriptionPattern(VIEW_SUBSCRIPTION));
    expect(readFileSync(join(import.meta.dirname, '../../docs/data-model.md'), 'utf8')).toContain(`(\`${filter}\`,`);
    // With the dashboard on, still nothing within the free tier.
    expect(idleBill({ Resources: tuned }).withinFreeTier).toBe(0);
  });
});

describe('a flood of distinct codes (contract §10.2)', () => {
  const capped = routes.filter((r) => r.capped);
  const reservations = (r: Resources) =>
    Object.fromEntries(
      functionsOf(r).map(([id, f]) => [id.replace(/Function[0-9A-F]{8}$/, ''), f.Properties.ReservedConcurrentExecutions]),
    );

  it('by default no function reserves concurrency (a new account deploys it: contract §11.4); the setting reserves it for the two that draw per request', () => {
    expect(capped.map((r) => r.name).sort()).toEqual(['readCodeImage', 'readDeckImage']);
    for (const [id, reserved] of Object.entries(reservations(plain))) expect(reserved, id).toBeUndefined();
    const set = reservations(reserving);
    for (const route of routes) expect(set[pascal(route.name)], route.name).toBe(route.capped ? 5 : undefined);
    // The operator's reservation of each function reaches the capped ones too unless they are set apart.
    expect([reservations(tuned).ReadCodeImage, reservations(tuned).ReadCard]).toEqual([3, 3]);
  });

  it('costs at most a stated sum a day, computed from the template over every route key that reaches each function (its HEAD twin too); docs/operations.md prints it', () => {
    const lines = floodCost({ Resources: plain }, RENDER_MS);
    // The throttles of each key from the stage's settings: a GET and its HEAD, each its own bucket.
    const stage = of(plain, 'AWS::ApiGatewayV2::Stage')[0]?.[1].Properties.RouteSettings as Record<
      string,
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    >;
    for (const [i, route] of capped.entries()) {
      const keys = [`GET ${route.path}`, `HEAD ${route.path}`];
      const line = lines[i] as (typeof lines)[number];
      expect([line.routeKeys, line.reserved]).toEqual([keys, undefined]);
      const perDay = keys.reduce(
        (n, k) => n + (stage[k]?.ThrottlingBurstLimit ?? NaN) + (stage[k]?.ThrottlingRateLimit ?? NaN) * 86_400,
        0,
      );
      expect(line.requestsPerDay).toBe(perDay);
      expect(line.requestsPerDay).toBe(2 * (5 + 5 * 86_400));
    }
    // A reservation bounds the worst (its renders at once); without one, every request at the timeout.
    const reserved = floodCost({ Resources: reserving }, RENDER_MS);
    for (const [i, line] of lines.entries()) expect((reserved[i] as (typeof lines)[number]).worstPerDay).toBeLessThan(line.worstPerDay / 5);
    const table = floodTable(lines, RENDER_MS);
    console.log(table);
    const runbook = readFileSync(join(import.meta.dirname, '../../docs/operations.md'), 'utf8');
    expect(runbook).toContain(table);
    const worst = reserved.map((l) => l.worstPerDay);
    expect(runbook).toContain(
      `brings the worst to $${worst[0]?.toFixed(2)} a\nroute, $${worst.reduce((a, b) => a + b, 0).toFixed(2)} for both`,
    );
  });

  it("a code image's requests write no more log bytes than the figures count (its lines, Lambda's, the access log's)", async () => {
    /** The bytes the function writes to its log for a request of `path`. */
    const logged = async (path: string) => {
      const writes: string[] = [];
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = ((chunk: string | Uint8Array) => {
        writes.push(String(chunk));
        return true;
      }) as typeof process.stdout.write;
      try {
        await inFunction('GET', path);
      } finally {
        process.stdout.write = write;
      }
      return Buffer.byteLength(writes.join(''));
    };
    const code = urlCodeOf(parseDeckCode(legalCode(demoCatalogue(), 'soviet', 'usa')));
    const usual = await logged(`/api/v1/codes/${code}/image.png`);
    // A path as long as HTTP API lets one be (its request line and headers: 10,240 bytes at most).
    const longest = await logged(`/api/v1/codes/${code}${'-'.repeat(10_000)}/image.png`);
    expect(usual).toBeGreaterThan(0);
    // Lambda's platform lines at their longest (START, END, REPORT with an init duration).
    const platform = Buffer.byteLength(
      `START RequestId: ${'0'.repeat(36)} Version: $LATEST\nEND RequestId: ${'0'.repeat(36)}\nREPORT RequestId: ${'0'.repeat(36)}\tDuration: 10000.00 ms\tBilled Duration: 10000 ms\tMemory Size: 1024 MB\tMax Memory Used: 1024 MB\tInit Duration: 1000.00 ms\t\n`,
    );
    // API Gateway's access line: its fields, each at a usual length; at most, the whole request line and headers in it.
    const fields = Object.keys(ACCESS_LOG_FIELDS);
    const access = Buffer.byteLength(JSON.stringify(Object.fromEntries(fields.map((k) => [k, 'x'.repeat(40)]))));
    const accessMost = Buffer.byteLength(JSON.stringify(Object.fromEntries(fields.map((k) => [k, 'x'.repeat(20)])))) + 10_240;
    console.log(
      `log bytes of a code image request: usual ${usual} + ${platform} + ${access}; at most ${longest} + ${platform} + ${accessMost}`,
    );
    expect(usual + platform + access).toBeLessThanOrEqual(LOG_BYTES.usual);
    expect(longest + platform + accessMost).toBeLessThanOrEqual(LOG_BYTES.most);
    // docs/operations.md's log cost of a million usual requests is these bytes' ingestion (within a cent, and
    // the bytes it states within 100 of these).
    const bytes = usual + platform + access;
    const stated = readFileSync('docs/operations.md', 'utf8').match(
      /CloudWatch Logs ≈ \$([\d.]+) \(about ([\d,]+) bytes of log lines a request/,
    );
    expect(stated, 'docs/operations.md: "CloudWatch Logs ≈ $X (about N bytes of log lines a request"').toBeTruthy();
    expect(Math.abs(Number(stated?.[2]?.replace(',', '')) - bytes)).toBeLessThanOrEqual(100);
    expect(Math.abs(Number(stated?.[1]) - ((bytes * 1e6) / 1e9) * PRICES.cloudwatch.logsIngestedGb)).toBeLessThanOrEqual(0.01);
  });
});

describe('the HTTP API stage', () => {
  it("access log in HTTP API's own fields", () => {
    const [[, stage]] = of(plain, 'AWS::ApiGatewayV2::Stage') as [[string, Resources]];
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format);
    expect(format).toEqual(ACCESS_LOG_FIELDS);
    for (const field of [
      '$context.routeKey',
      '$context.status',
      '$context.responseLatency',
      '$context.integrationLatency',
      '$context.integrationErrorMessage',
      '$context.requestId',
    ])
      expect(Object.values(format)).toContain(field);
  });

  it('per-route throttles from the route table: writes stricter than reads, from context', () => {
    const settings = (r: Resources) => (of(r, 'AWS::ApiGatewayV2::Stage')[0] as [string, Resources])[1].Properties.RouteSettings;
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      expect(settings(plain)[key], key).toEqual(
        {
          capped: { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 5 },
          read: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
          write: { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        }[throttleClass(route)],
      );
      if (throttleClass(route) === 'write') expect(settings(tuned)[key].ThrottlingRateLimit).toBe(5);
    }
    const [[, api]] = of(plain, 'AWS::ApiGatewayV2::Api') as [[string, Resources]];
    expect(api.Properties.CorsConfiguration.AllowHeaders).toEqual([...CORS.allowHeaders]);
  });
});

describe('functions', () => {
  it('no secret in any configuration or the template: no secret resource, no dynamic reference; the cursor keys read only where cursors are', () => {
    expect(of(plain, 'AWS::SecretsManager::Secret')).toHaveLength(0);
    expect(JSON.stringify(plain)).not.toMatch(/\{\{resolve:(secretsmanager|ssm-secure)/);
    const readers = new Set(
      of(plain, 'AWS::IAM::Policy')
        .filter(([, p]) => JSON.stringify(p.Properties.PolicyDocument).includes('"CURSORKEYS"'))
        .flatMap(([, p]) => p.Properties.Roles.map((r: { Ref: string }) => r.Ref.replace(/Role.*$/, ''))),
    );
    const withCursors = routes.filter((r) => r.cursors).map((r) => pascal(r.name));
    expect([...readers].sort()).toEqual(withCursors.sort());
  });

  it('no reserved concurrency, no tracing and no source-map support by default; each from context values', () => {
    for (const [id, fn] of functionsOf(plain)) {
      expect(fn.Properties.ReservedConcurrentExecutions, id).toBeUndefined();
      expect(fn.Properties.TracingConfig?.Mode ?? 'PassThrough', id).not.toBe('Active');
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS, id).toBeUndefined();
    }
    // What a reservation multiplies, as the runbook says: one function per route and one per worker.
    expect(functionsOf(plain).length).toBe(ROUTES.length + WORKERS.length + 1 + DAILY_WORKERS.length + 1);
    for (const [id, fn] of functionsOf(tuned)) {
      expect(fn.Properties.ReservedConcurrentExecutions, id).toBe(3);
      expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS, id).toBe('--enable-source-maps');
    }
  });
});
