/**
 * What operations get from the synthesised template (issue: production operations): alarms on every
 * metric of docs/operations.md to one SNS topic, a dashboard, the HTTP API access log in its own
 * fields, per-route throttles from the route table, no secret in any function's configuration (and
 * the cursor key readable only by the functions that use it), an optional concurrency reservation and
 * tracing switch — defaults first, then the context values that change them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORS, ROUTES, type Route, throttleClass } from '#routes';
import { buildApp } from '../../infra/app.ts';
import { LATENCY_WATCHED } from '../../infra/constructs/monitoring.ts';
import { ACCESS_LOG_FIELDS } from '../../infra/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
type Resources = Record<string, any>;
const routes = (ROUTES as readonly Route[]).filter((r) => r.path !== '$default');
const dirs: string[] = [];

function synth(context: Record<string, unknown> = {}): Resources {
  const dir = mkdtempSync(join(tmpdir(), 'deck-library-ops-'));
  dirs.push(dir);
  const { app, stack } = buildApp(new App({ outdir: dir, context }));
  app.synth();
  return app.synth().getStackByName(stack.stackName).template.Resources;
}
const of = (r: Resources, type: string) => Object.entries(r).filter(([, x]) => x.Type === type);
const functionsOf = (r: Resources) => of(r, 'AWS::Lambda::Function');

let plain: Resources;
let tuned: Resources;
beforeAll(() => {
  plain = synth();
  tuned = synth({
    'deck-library:reservedConcurrency': 3,
    'deck-library:tracing': 'true',
    'deck-library:sourceMaps': 'true',
    'deck-library:alarmEmail': 'oncall@example.com',
    'deck-library:writeRateLimit': 5,
    'deck-library:alarmP99Ms': 750,
  });
}, 300_000);
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('alarms, topic and dashboard', () => {
  it('every alarm goes to the one encrypted topic; each metric of the runbook has its alarm', () => {
    const [[topicId, topic]] = of(plain, 'AWS::SNS::Topic') as [[string, Resources]];
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    const alarms = of(plain, 'AWS::CloudWatch::Alarm').map(([id, a]) => ({ id, ...a.Properties }));
    for (const a of alarms) expect(a.AlarmActions, a.id).toEqual([{ Ref: topicId }]);
    const ids = alarms.map((a) => a.id).join(' ');
    expect(ids).toMatch(/ApiServerErrors/);
    for (const r of ROUTES) {
      const Name = `${r.name[0]?.toUpperCase()}${r.name.slice(1)}`;
      expect(ids).toMatch(new RegExp(`${Name}Errors`));
      expect(ids).toMatch(new RegExp(`${Name}Throttles`));
    }
    for (const name of LATENCY_WATCHED) expect(ids).toMatch(new RegExp(`${name[0]?.toUpperCase()}${name.slice(1)}LatencyP99`));
    for (const table of ['Decks', 'Accounts']) {
      expect(ids).toMatch(new RegExp(`${table}ThrottledRequests`));
      expect(ids).toMatch(new RegExp(`${table}SystemErrors`));
    }
    expect(ids).toMatch(/ConcurrencyNearCeiling/);
    const p99 = alarms.find((a) => a.id.includes('SearchDecksLatencyP99'));
    expect([p99?.Threshold, p99?.ExtendedStatistic]).toEqual([1000, 'p99']);
    expect(of(plain, 'AWS::SNS::Subscription')).toHaveLength(0);
    expect(of(plain, 'AWS::CloudWatch::Dashboard')).toHaveLength(1);
  });

  it('thresholds and the e-mail subscription come from context values', () => {
    const p99 = of(tuned, 'AWS::CloudWatch::Alarm').find(([id]) => id.includes('SearchDecksLatencyP99'))?.[1];
    expect(p99.Properties.Threshold).toBe(750);
    const [[, sub]] = of(tuned, 'AWS::SNS::Subscription') as [[string, Resources]];
    expect(sub.Properties).toMatchObject({ Protocol: 'email', Endpoint: 'oncall@example.com' });
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
        throttleClass(route) === 'read'
          ? { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 }
          : { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
      );
      if (throttleClass(route) === 'write') expect(settings(tuned)[key].ThrottlingRateLimit).toBe(5);
    }
    const [[, api]] = of(plain, 'AWS::ApiGatewayV2::Api') as [[string, Resources]];
    expect(api.Properties.CorsConfiguration.AllowHeaders).toEqual([...CORS.allowHeaders]);
  });
});

describe('functions', () => {
  it('no secret in any configuration: no dynamic reference, no secret ARN; the key read only where cursors are', () => {
    const secrets = of(plain, 'AWS::SecretsManager::Secret').map(([id]) => id);
    expect(secrets).toHaveLength(1);
    for (const [id, fn] of functionsOf(plain)) {
      const env = JSON.stringify(fn.Properties.Environment ?? {});
      expect(env, id).not.toContain('{{resolve:secretsmanager');
      for (const secret of secrets) expect(env, id).not.toContain(`"${secret}"`);
    }
    const readers = new Set(
      of(plain, 'AWS::IAM::Policy')
        .filter(([, p]) => JSON.stringify(p.Properties.PolicyDocument).includes('secretsmanager:GetSecretValue'))
        .flatMap(([, p]) => p.Properties.Roles.map((r: { Ref: string }) => r.Ref.replace(/Role.*$/, ''))),
    );
    const withCursors = routes.filter((r) => r.cursors).map((r) => `${r.name[0]?.toUpperCase()}${r.name.slice(1)}`);
    expect([...readers].sort()).toEqual(withCursors.sort());
    for (const p of of(plain, 'AWS::IAM::Policy').filter(([, x]) => JSON.stringify(x).includes('secretsmanager:'))) {
      for (const s of p[1].Properties.PolicyDocument.Statement.filter((x: { Action: unknown }) =>
        JSON.stringify(x.Action).includes('secretsmanager'),
      ))
        expect(s.Resource).toEqual({ Ref: secrets[0] });
    }
  });

  it('no reserved concurrency, no tracing and no source-map support by default; each from context values', () => {
    for (const [id, fn] of functionsOf(plain)) {
      expect(fn.Properties.ReservedConcurrentExecutions, id).toBeUndefined();
      expect(fn.Properties.TracingConfig?.Mode ?? 'PassThrough', id).not.toBe('Active');
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS, id).toBeUndefined();
    }
    for (const [id, fn] of functionsOf(tuned)) {
      expect(fn.Properties.ReservedConcurrentExecutions, id).toBe(3);
      expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS, id).toBe('--enable-source-maps');
    }
  });
});
