/**
 * The CDK app, proved by synthesis (offline, no Docker): routes and functions from the route table,
 * tables from the shared definition, least-privilege IAM per function, cdk-nag clean, and a bundle
 * report with budgets.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { App, type CfnResource as CdkResource, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoCatalogue, loadCatalogueFile } from '#catalogue/load.ts';
import {
  CATALOGUE_GRANT,
  CORS,
  type Grantee,
  grantsOf,
  methodsOf,
  ROUTE_GROUPS,
  ROUTES,
  type Route,
  routeByName,
  routeKey,
  type SubsetFont,
} from '#routes';
import {
  BULK_EXPORT,
  CATALOGUE_REFRESH,
  DAILY_WORKERS,
  DAY_OPENER,
  subscriptionPattern,
  VIEW_SUBSCRIPTION,
  WEBHOOK_DELIVERIES,
  WORKERS,
  type Worker,
} from '#routes/workers.ts';
import { BULK_FOLDER, BULK_GONE_DAYS, BULK_KEPT_DAYS } from '#rules/bulk.ts';
import { cardName } from '#rules/card.ts';
import { compileCatalogue } from '#rules/catalogue.ts';
import { factionName } from '#rules/faction-names.ts';
import { FACTIONS } from '#rules/factions.ts';
import { KARDS_LANGUAGES } from '#rules/kards-graphql.ts';
import { labelTexts } from '#rules/labels.ts';
import { fontMetrics } from '#share/font-metrics.ts';
import { shippedFiles } from '#shipped';
import { documentClient } from '#store/client.ts';
import { BOARD } from '#store/items/board.ts';
import { CATALOGUE } from '#store/items/catalogue.ts';
import { CURSOR_KEYS_KEY, type CursorKey } from '#store/items/cursor-keys.ts';
import { ENTERED, EVENT } from '#store/items/event.ts';
import { SEARCH_ENTRY, SORT_INDEX } from '#store/items/search-entry.ts';
import { VIEW_COUNT } from '#store/items/view-count.ts';
import { HOOKS, WEBHOOK } from '#store/items/webhook.ts';
import { ACCOUNTS, DECKS, type TableDef, tableName } from '#store/tables.ts';
import { buildApp } from '../../infra/app.ts';
import { BUNDLE } from '../../infra/bundling.ts';
import { BUNDLE_TARGET, BUNDLED_CATALOGUE, RUNTIME, ServiceFunction } from '../../infra/constructs/service-function.ts';
import { declaredQuery, matchesPattern } from '../../infra/edge-behaviours.ts';
import { GUARD_EXCEPTIONS } from '../../infra/guard.ts';
import { lambdaContext, matchRoute, toEvent } from '../../infra/local/events.ts';
import { NODE_MAJOR, runningMajor } from '../../infra/node-version.ts';
import { pascal } from '../../infra/stack.ts';
import { type CfnResource, readStack } from '../../infra/template.ts';
import { deckctl } from '../support/deckctl.ts';
import { startFaultProxy, THROTTLING } from '../support/fault-proxy.ts';
import { startKardsStandIn } from '../support/kards-standin.ts';
import { hasRealCatalogue, PROJECT_ROOT } from '../support/shared.ts';

const routes = ROUTES as readonly Route[];
const workers = WORKERS as readonly Worker[];
let outdir: string;
let template: Template;
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
let resources: Record<string, any>;

/** Synthesises the app into a fresh directory, with cdk-nag (and cfn-guard, `guard`): any unacknowledged finding throws. */
/**
 * A synth whose functions' code is not built (CDK's `aws:cdk:bundling-stacks` context: no stack bundles), for a
 * test that reads only the template: the base synth above builds and checks every bundle once.
 */
const TEMPLATE_ONLY = { 'aws:cdk:bundling-stacks': [] } as const;

/**
 * `fromElsewhere`: the output folder given relative to a working directory that is not the project's (as the CDK CLI
 * gives `cdk.out`, for an app run from another folder); the folder returned is absolute.
 */
function synth(
  env: Record<string, string | undefined> = {},
  extraContext: Record<string, unknown> = {},
  guard: boolean | { rules: string[] } = true,
  { fromElsewhere = false } = {},
) {
  const saved = { ...process.env };
  const cwd = process.cwd();
  Object.assign(process.env, env);
  try {
    const dir = mkdtempSync(join(tmpdir(), 'deck-library-cdk-'));
    if (fromElsewhere) process.chdir(dirname(dir));
    const { app, stack } = buildApp(
      new App({
        outdir: fromElsewhere ? basename(dir) : dir,
        context: {
          'deck-library:readRateLimit': 42,
          'aws:cdk:enable-asset-metadata': true,
          // The policy validation plugins' report, as JSON beside the template.
          '@aws-cdk/core:validationReportJson': true,
          ...extraContext,
        },
      }),
      { guard },
    );
    app.synth();
    return { dir, stack };
  } finally {
    process.chdir(cwd);
    process.env = saved;
  }
}

/** The resources of a synthesis, its nested stacks' with them (infra/template.ts). */
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
const resourcesIn = (dir: string, stack = 'DeckLibrary'): Record<string, any> => readStack(dir, stack).merged.Resources;
const byType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const functionId = (route: Grantee) =>
  Object.keys(resources).find(
    (id) => resources[id].Type === 'AWS::Lambda::Function' && id.startsWith(`${pascal(route.name)}Function`),
  ) as string;
const assetDir = (route: Grantee) => join(outdir, resources[functionId(route)].Metadata['aws:asset:path']);
/** A function's asynchronous invocation settings. */
const invokeConfigOf = (fn: Grantee) =>
  byType('AWS::Lambda::EventInvokeConfig').find(([, c]) => c.Properties.FunctionName?.Ref === functionId(fn))?.[1];
/** All statements of a route's (or a worker's) role. */
function statements(route: Grantee) {
  const roleId = Object.keys(resources).find((id) => resources[id].Type === 'AWS::IAM::Role' && id.startsWith(`${pascal(route.name)}Role`));
  return byType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
}
const tableRef = (def: TableDef) =>
  Object.keys(resources).find((id) => resources[id].Type === 'AWS::DynamoDB::GlobalTable' && id.startsWith(`${pascal(def.id)}Table`));
const dynamo = (route: Grantee) =>
  statements(route).filter((s: { Action: string | string[] }) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
const onTable = (s: { Resource: unknown }, def: TableDef) => JSON.stringify(s.Resource).includes(`"${tableRef(def)}"`);

beforeAll(() => {
  ({ dir: outdir } = synth());
  template = Template.fromJSON(readStack(outdir, 'DeckLibrary').merged);
  resources = template.toJSON().Resources;
}, 300_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('API and functions', () => {
  it('one route per route-table entry (and a HEAD twin of each GET: contract §10.4), each to its own function', () => {
    const apiRoutes = byType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties);
    expect(apiRoutes.map((r) => r.RouteKey).sort()).toEqual(routes.flatMap((r) => methodsOf(r).map((m) => routeKey(r, m))).sort());
    expect(apiRoutes.filter((r) => r.RouteKey.startsWith('HEAD ')).length).toBe(routes.filter((r) => r.method === 'GET').length);
    const targets = apiRoutes.map((r) => JSON.stringify(resources[r.Target['Fn::Join'][1][1].Ref].Properties.IntegrationUri));
    expect(new Set(targets).size).toBe(routes.length);
    for (const route of routes) expect(functionId(route), route.name).toBeDefined();
    // And one function per worker (lib/workers/), which no route calls.
    for (const worker of workers) expect(functionId(worker), worker.name).toBeDefined();
    // And the access log's subscriber (views), and the daily functions (the views' week, the catalogue's refresh).
    expect(functionId(VIEW_SUBSCRIPTION), VIEW_SUBSCRIPTION.name).toBeDefined();
    for (const worker of DAILY_WORKERS) expect(functionId(worker), worker.name).toBeDefined();
    // And the webhook deliveries' worker, on its queue.
    expect(functionId(WEBHOOK_DELIVERIES), WEBHOOK_DELIVERIES.name).toBeDefined();
    expect(byType('AWS::Lambda::Function')).toHaveLength(routes.length + workers.length + 1 + DAILY_WORKERS.length + 1);
  });

  it('the tests run on the Node major the functions run on (template runtime, esbuild target, package.json node)', () => {
    const runtimes = new Set(byType('AWS::Lambda::Function').map(([, fn]) => fn.Properties.Runtime as string));
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8'));
    console.log(`tests on node ${process.version}; functions on ${[...runtimes].join(', ')}; esbuild target ${BUNDLE_TARGET}`);
    expect([...runtimes]).toEqual([`nodejs${runningMajor()}.x`]);
    expect(BUNDLE_TARGET).toBe(`node${runningMajor()}`);
    expect(runningMajor(pkg.devDependencies.node)).toBe(runningMajor());
  });

  it('functions: ARM64, Node.js of node-version.ts, bundled, log groups with retention, 10 s (a worker its own timeout); source maps read only when asked (settings)', () => {
    const ownTimeout = new Map(
      [...workers, ...DAILY_WORKERS, WEBHOOK_DELIVERIES]
        .filter((w) => w.timeoutSeconds)
        .map((w) => [functionId(w as Grantee), w.timeoutSeconds]),
    );
    // The erasure worker's steps wait; the daily opener walks every deck with a week, the catalogue's refresh every
    // page of the endpoint in every language, the bulk export and the cluster job every public deck (15 minutes, Lambda's most);
    // the webhook deliveries' batch waits up to 15 s on its slowest target.
    expect([...ownTimeout.values()]).toEqual([60, 900, 900, 900, 900, 60]);
    for (const [id, fn] of byType('AWS::Lambda::Function')) {
      expect(fn.Properties).toMatchObject({
        Runtime: `nodejs${NODE_MAJOR}.x`,
        Architectures: ['arm64'],
        Timeout: ownTimeout.get(id) ?? 10,
      });
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
      expect(fn.Properties.Environment.Variables.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS).toBe('true');
      expect(fn.Properties.LoggingConfig.LogGroup).toBeDefined();
    }
    for (const [, lg] of byType('AWS::Logs::LogGroup')) expect(lg.Properties.RetentionInDays).toBe(30);
  });

  it('stage: throttling from context (with defaults), access logs; CORS equal to the shared definition', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 42, ThrottlingBurstLimit: 200 },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
    });
    const [, api] = byType('AWS::ApiGatewayV2::Api')[0] ?? [];
    expect(api.Properties.ProtocolType).toBe('HTTP');
    expect(api.Properties.CorsConfiguration).toEqual({
      AllowOrigins: [...CORS.allowOrigins],
      AllowMethods: [...CORS.allowMethods],
      AllowHeaders: [...CORS.allowHeaders],
      ExposeHeaders: [...CORS.exposeHeaders],
      MaxAge: CORS.maxAgeSeconds,
    });
    for (const output of ['ApiUrl', 'DecksTableName', 'AccountsTableName']) template.hasOutput(output, {});
  });
});

describe('tables', () => {
  it.each([DECKS, ACCOUNTS])('$id: keys, indexes and billing from the shared definition; PITR, retained, protected, encrypted', (def) => {
    const [, table] = byType('AWS::DynamoDB::GlobalTable').find(([id]) => id === tableRef(def)) ?? [];
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    const p = table.Properties;
    expect(p.BillingMode).toBe('PAY_PER_REQUEST');
    expect(p.KeySchema).toEqual([
      { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
      { AttributeName: def.sortKey.name, KeyType: 'RANGE' },
    ]);
    const key = (pk: { name: string }, sk?: { name: string }) => [
      { AttributeName: pk.name, KeyType: 'HASH' },
      ...(sk ? [{ AttributeName: sk.name, KeyType: 'RANGE' }] : []),
    ];
    const projection = (i: TableDef['globalIndexes'][number]) =>
      i.projection.type === 'INCLUDE'
        ? { ProjectionType: 'INCLUDE', NonKeyAttributes: i.projection.attributes }
        : { ProjectionType: i.projection.type };
    expect(p.GlobalSecondaryIndexes ?? []).toEqual(
      def.globalIndexes.map((i) => ({ IndexName: i.indexName, KeySchema: key(i.partitionKey, i.sortKey), Projection: projection(i) })),
    );
    expect(p.LocalSecondaryIndexes ?? []).toEqual(
      def.localIndexes.map((i) => ({ IndexName: i.indexName, KeySchema: key(i.partitionKey, i.sortKey), Projection: projection(i) })),
    );
    expect(p.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS' });
    expect(p.Replicas[0]).toMatchObject({
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
    });
  });
});

describe('deploying for the first time', () => {
  /** What a resource depends on in CloudFormation's order: its DependsOn, and every Ref and GetAtt in it. */
  const directDependencies = (id: string): Set<string> => {
    const found = new Set<string>([resources[id].DependsOn ?? []].flat());
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (typeof o.Ref === 'string' && o.Ref in resources) found.add(o.Ref);
        const att = o['Fn::GetAtt'];
        if (Array.isArray(att) && typeof att[0] === 'string') found.add(att[0]);
        Object.values(o).forEach(walk);
      }
    };
    walk(resources[id].Properties);
    return found;
  };
  const dependenciesOf = (id: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [id];
    while (stack.length) for (const d of directDependencies(stack.pop() as string)) if (!seen.has(d) && seen.add(d)) stack.push(d);
    return seen;
  };

  it('the stage is created after every route it has settings for: API Gateway refuses settings for a route that does not exist yet', () => {
    const [stageId, stage] = byType('AWS::ApiGatewayV2::Stage')[0] as [string, { Properties: { RouteSettings: object } }];
    const keys = Object.keys(stage.Properties.RouteSettings);
    // Each route's, and its HEAD twin's (a GET's: contract §10.4).
    expect(keys.length).toBe(routes.filter((r) => r.path !== '$default').flatMap((r) => methodsOf(r)).length);
    const routeIds = new Map(byType('AWS::ApiGatewayV2::Route').map(([id, r]) => [r.Properties.RouteKey as string, id]));
    const before = dependenciesOf(stageId);
    for (const key of keys) {
      const routeId = routeIds.get(key);
      expect(routeId, key).toBeDefined();
      expect(before.has(routeId as string), `the stage does not wait for ${key}`).toBe(true);
    }
  });

  it("every Lambda permission is API Gateway's for this API only (the guard rule's finding is a false positive)", () => {
    const [apiId] = byType('AWS::ApiGatewayV2::Api')[0] as [string, unknown];
    const all = byType('AWS::Lambda::Permission');
    // But one: CloudWatch Logs may invoke countViews for the access log group's subscription only.
    const logs = all.filter(([, p]) => p.Properties.Principal === 'logs.amazonaws.com');
    expect(logs).toHaveLength(1);
    const [accessLogs] = byType('AWS::Logs::LogGroup').find(([id]) => id.startsWith('AccessLogs')) as [string, unknown];
    expect(JSON.stringify(logs[0]?.[1].Properties.SourceArn)).toContain(`"${accessLogs}"`);
    expect(JSON.stringify(logs[0]?.[1].Properties.FunctionName)).toContain(functionId(VIEW_SUBSCRIPTION));
    // And one a daily function: EventBridge may invoke it, for its schedule's rule only.
    const events = all.filter(([, p]) => p.Properties.Principal === 'events.amazonaws.com');
    expect(events).toHaveLength(DAILY_WORKERS.length);
    for (const worker of DAILY_WORKERS) {
      const [rule] = byType('AWS::Events::Rule').find(([id]) => id.startsWith(`${pascal(worker.name)}Schedule`)) as [string, unknown];
      const [, permission] = events.find(([, p]) => JSON.stringify(p.Properties.FunctionName).includes(functionId(worker))) ?? [];
      expect(permission?.Properties.SourceArn, worker.name).toEqual({ 'Fn::GetAtt': [rule, 'Arn'] });
    }
    const permissions = all.filter(([, p]) => !['logs.amazonaws.com', 'events.amazonaws.com'].includes(p.Properties.Principal));
    // One a route's function (its GET and HEAD twin share it: CDK scopes them to one ARN, method-free), in the
    // function's own stack (infra/constructs/function-integration.ts).
    expect(permissions.length).toBe(routes.length);
    for (const route of routes) {
      const mine = permissions.filter(([, p]) => p.Properties.FunctionName['Fn::GetAtt']?.[0] === functionId(route));
      expect([route.name, mine.length]).toEqual([route.name, 1]);
      const [id, p] = mine[0] as [string, { Properties: Record<string, unknown> }];
      expect(p.Properties.Principal, id).toBe('apigateway.amazonaws.com');
      expect(p.Properties.Action, id).toBe('lambda:InvokeFunction');
      // The API's own ARN (its id joined in), any stage and method, narrowed to the route's path (the catch-all: the API).
      const arn = JSON.stringify(p.Properties.SourceArn);
      expect(arn, id).toContain(`{"Ref":"${apiId}"}`);
      expect(arn, id).toContain(`"/*/*${route.path === '$default' ? '' : route.path}"`);
    }
  });
});

describe('room to grow (contract §12.4)', () => {
  /** CloudFormation's hard limit is 500 resources a stack; the contract keeps every stack under 450. */
  const CEILING = 450;
  /** The routes this round's issues add (56: none beyond a size of the image's; 57: the bulk-data listing; 58: a collection's GET, PUT, PATCH, what a deck misses, and decks like one, by slug and by code), and 30 more. */
  const GROWTH = 1 + 6 + 30;

  /** Each template of a synthesis, and what a route costs in the stack and in its group's nested stack. */
  const measure = (dir: string) => {
    const { files, merged } = readStack(dir, 'DeckLibrary');
    const [parent, ...nested] = files as [{ file: string; resources: number }, ...{ file: string; resources: number }[]];
    // A route in the API's stack: its integration and its route keys (a GET's HEAD twin too).
    const inParent = Math.max(...routes.map((r) => 1 + methodsOf(r).length));
    // A function in its nested stack: whatever its template holds a function, the worst of them.
    const functionsIn = (file: string) =>
      Object.values(JSON.parse(readFileSync(join(dir, file), 'utf8')).Resources as Record<string, { Type: string }>).filter(
        (r) => r.Type === 'AWS::Lambda::Function',
      ).length;
    const inNested = Math.max(...nested.map((n) => Math.ceil(n.resources / functionsIn(n.file))));
    return { parent, nested, inParent, inNested, merged };
  };

  it.each([
    ['default settings', {}],
    [
      'every opt-in on',
      {
        'deck-library:dashboard': 'true',
        'deck-library:tracing': 'true',
        'deck-library:sourceMaps': 'true',
        'deck-library:alarmEmail': 'oncall@example.com',
        'deck-library:reservedConcurrency': 3,
        'deck-library:cappedConcurrency': 2,
        'deck-library:discordPublicKey': 'ab'.repeat(32),
        'deck-library:domainNames': 'decks.example.org',
        'deck-library:certificateArn': 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000',
      },
    ],
  ])(
    "with %s, every stack is under 450 resources with room for this round's routes and 30 more, each in the API's stack and all in one nested stack",
    (_, context) => {
      const { dir } = synth({}, { ...context, ...TEMPLATE_ONLY }, false);
      try {
        const { parent, nested, inParent, inNested, merged } = measure(dir);
        console.log(
          `resources: ${parent.resources} in the stack (${inParent} a route), ${nested.length} nested stacks of ${nested.map((n) => n.resources).join(', ')} (${inNested} a function); ${Object.keys(merged.Resources).length} in all`,
        );
        // The functions are in nested stacks, one a route group and one for the workers.
        expect(nested.length).toBe(Object.keys(ROUTE_GROUPS).length + 1);
        for (const { file, resources: count } of [parent, ...nested]) expect([file, count < CEILING]).toEqual([file, true]);
        expect(parent.resources + GROWTH * inParent).toBeLessThan(CEILING);
        expect(Math.max(...nested.map((n) => n.resources)) + GROWTH * inNested).toBeLessThan(CEILING);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );

  it("docs/deploy.md states the template's figures: resources, nested stacks, retained log groups, the mappings' start, the edge's policies and behaviours", () => {
    const deploy = readFileSync(join(import.meta.dirname, '../../docs/deploy.md'), 'utf8').replace(/\s+/g, ' ');
    const { parent, nested, merged } = measure(outdir);
    const counts = nested.map((n) => n.resources);
    const total = Object.keys(merged.Resources).length;
    expect(deploy).toContain(
      `With the default settings: ${parent.resources} resources in the stack and ${Math.min(...counts)}–${Math.max(...counts)} in each of ${nested.length} nested stacks (${total} in all;`,
    );
    // Every log group retained, as the upgrade's paragraph says; every mapping from TRIM_HORIZON.
    const logGroups = byType('AWS::Logs::LogGroup');
    expect(logGroups.length).toBeGreaterThan(routes.length);
    for (const [id, lg] of logGroups) expect([id, lg.DeletionPolicy, lg.UpdateReplacePolicy]).toEqual([id, 'Retain', 'Retain']);
    expect(deploy).toContain('Every log group is now deployed retained (DeletionPolicy Retain)');
    // Every stream mapping from TRIM_HORIZON (a queue's mapping names no start: it takes what the queue holds).
    for (const [id, m] of byType('AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties.StartingPosition !== undefined))
      expect([id, m.Properties.StartingPosition]).toEqual([id, 'TRIM_HORIZON']);
    expect(byType('AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties.StartingPosition !== undefined)).toHaveLength(
      workers.length,
    );
    expect(deploy).toContain('The new stream mappings start at TRIM_HORIZON');
    // The account-wide and distribution quotas the edge uses.
    const policies = byType('AWS::CloudFront::CachePolicy').length;
    const behaviours = byType('AWS::CloudFront::Distribution')[0]?.[1].Properties.DistributionConfig.CacheBehaviors.length;
    expect(deploy).toContain(`each stack with the edge creates ${policies} of the account's 20 cache policies`);
    expect(deploy).toContain(`its distribution uses ${behaviours} of CloudFront's 25 cache behaviours a distribution`);
    expect(deploy).toContain(`about ${25 - behaviours} more cached routes fit (25 − ${behaviours})`);
    // Two stacks with the edge fit in one account (prod and staging): the feed's key (nine parameters no other route
    // shares) took a seventh policy; docs/deploy.md says how to give one back.
    expect(Math.floor(20 / policies)).toBeGreaterThanOrEqual(2);
  });

  // A deployed stack moves to nested stacks by an update: CloudFormation creates the nested stacks' functions, points
  // the integrations, schedules and subscription at them, then deletes the old ones. The tables stay in the stack under
  // the logical ids they were deployed with (an id changed is a table replaced: a new, empty table) and are retained.
  it('the tables keep the logical ids deployed before the functions moved to nested stacks, in the stack itself, retained', () => {
    const parent = JSON.parse(readFileSync(join(outdir, 'DeckLibrary.template.json'), 'utf8')).Resources as Record<string, CfnResource>;
    const tables = Object.entries(parent).filter(([, r]) => r.Type === 'AWS::DynamoDB::GlobalTable');
    // As deployed by main before nested stacks (c7f5fdb's template, and every release before it).
    expect(tables.map(([id]) => id).sort()).toEqual(['AccountsTable81C15AE5', 'DecksTable1391E269']);
    for (const [id, t] of tables) expect([id, t.DeletionPolicy, t.UpdateReplacePolicy]).toEqual([id, 'Retain', 'Retain']);
  });
});

describe('a new account (contract §12.4)', () => {
  // Issue 54: CloudFront refuses a new resource on many new accounts until they are verified; docs/deploy.md's way
  // out is a first deploy with edge=false, then the edge — which must add the distribution and replace nothing.
  it('edge=false first, then the edge: the second adds the distribution and its policies, and replaces nothing', () => {
    // The steps as docs/deploy.md writes them: the refusal's words, and the first deploy's context.
    const deployDoc = readFileSync(join(import.meta.dirname, '../../docs/deploy.md'), 'utf8');
    expect(deployDoc).toContain('Your account must be verified before\n  you can add new CloudFront resources');
    expect(deployDoc).toContain('npx cdk deploy -c deck-library:edge=false');
    const without = synth({}, { 'deck-library:edge': 'false', ...TEMPLATE_ONLY }, false);
    const withEdge = synth({}, { ...TEMPLATE_ONLY }, false);
    try {
      const read = (dir: string) => resourcesIn(dir);
      const before = read(without.dir);
      const after = read(withEdge.dir);
      // Every resource stays, of the same type, with the same properties but its code's asset key (an update in place) —
      // and two updates in place the edge brings: the bulk export links decks on the edge's domain (PUBLIC_URL), and the
      // bulk files' bucket lets the distribution read them (a statement of its policy).
      const changed: string[] = [];
      for (const [id, r] of Object.entries(before) as [string, { Type: string; Properties?: Record<string, unknown> }][]) {
        expect([id, after[id]?.Type]).toEqual([id, r.Type]);
        const { Code: _a, ...was } = r.Properties ?? {};
        const { Code: _b, ...is } = after[id].Properties ?? {};
        const variables = (p: Record<string, unknown>) => (p.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
        if (variables(was)?.PUBLIC_URL !== undefined) {
          expect(JSON.stringify(variables(is)?.PUBLIC_URL)).toContain('EdgeDistribution');
          changed.push(id);
          (variables(was) as Record<string, unknown>).PUBLIC_URL = variables(is)?.PUBLIC_URL;
        }
        if (r.Type === 'AWS::S3::BucketPolicy') {
          const statements = (p: Record<string, unknown>) => (p.PolicyDocument as { Statement: unknown[] }).Statement;
          expect(statements(is).slice(0, statements(was).length)).toEqual(statements(was));
          expect(JSON.stringify(statements(is).slice(statements(was).length))).toContain('cloudfront.amazonaws.com');
          changed.push(id);
          continue;
        }
        expect([id, is]).toEqual([id, was]);
      }
      // The functions that link decks on the public origin (the bulk export; the webhooks' fan-out and deliveries).
      expect(changed.map((id) => before[id].Type).sort()).toEqual([
        'AWS::Lambda::Function',
        'AWS::Lambda::Function',
        'AWS::Lambda::Function',
        'AWS::S3::BucketPolicy',
      ]);
      const added = Object.keys(after).filter((id) => !(id in before));
      expect([...new Set(added.map((id) => after[id].Type))].sort()).toEqual([
        'AWS::CloudFront::CachePolicy',
        'AWS::CloudFront::Distribution',
        'AWS::CloudFront::Function',
        'AWS::CloudFront::OriginAccessControl',
        'AWS::CloudFront::OriginRequestPolicy',
        'AWS::CloudFront::ResponseHeadersPolicy',
      ]);
    } finally {
      for (const { dir } of [without, withEdge]) rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  // Issue 54: the erasure's mapping alone could take ten executions a shard — a new account's whole quota of 10.
  it("the stream mappings take at most half of a new account's 10 executions a shard: the API keeps the rest", () => {
    const all = byType('AWS::Lambda::EventSourceMapping');
    const mappings = all.filter(([, m]) => m.Properties.StartingPosition !== undefined);
    expect(mappings.length).toBe(workers.length);
    // The webhook deliveries' queue mapping: at most 2 executions at once (its MaximumConcurrency), whatever its backlog.
    const queue = all.filter(([, m]) => m.Properties.StartingPosition === undefined);
    expect(queue.map(([, m]) => m.Properties.ScalingConfig?.MaximumConcurrency)).toEqual([WEBHOOK_DELIVERIES.maxConcurrency]);
    // Lambda runs a stream mapping's batches at most ParallelizationFactor at once a shard (default 1).
    const perShard = mappings.reduce((n, [, m]) => n + (m.Properties.ParallelizationFactor ?? 1), 0);
    expect(perShard).toBeLessThanOrEqual(5);
  });
});

describe('a second region, a second stack, one account (contract §12.4)', () => {
  /** Resource types whose names are the account's, not a region's: CloudFront's, IAM's, CloudWatch's dashboards, S3's buckets. */
  const ACCOUNT_WIDE = /^AWS::(CloudFront|IAM|S3)::|^AWS::CloudWatch::Dashboard$/;
  /** Every name an account-wide resource is given (a property or a config's `Name`), as deployed in `region`. */
  const namesIn = (all: Record<string, { Type: string; Properties?: Record<string, unknown> }>, region: string) =>
    Object.entries(all)
      .filter(([, r]) => ACCOUNT_WIDE.test(r.Type) && r.Type !== 'AWS::IAM::Policy' /* a role's inline policy: the role's */)
      .flatMap(([id, r]) =>
        Object.entries(r.Properties ?? {}).flatMap(([key, value]) => {
          const named = key.endsWith('Name') ? value : (value as { Name?: unknown } | undefined)?.Name;
          return named === undefined || key === 'FunctionName'
            ? []
            : [[id, JSON.stringify(named).replaceAll('{"Ref":"AWS::Region"}', JSON.stringify(region))] as const];
        }),
      );

  // Issue 54: the edge's origin request and response headers policies were named without the region; CloudFront's
  // names are the account's, so a second region failed (aws-cdk issue 34336).
  it('every account-wide name carries the stack and the region: two regions, and two stacks, name nothing twice', () => {
    const everyOptIn = { 'deck-library:dashboard': 'true', ...TEMPLATE_ONLY };
    const one = synth({}, everyOptIn, false);
    const two = synth({}, { ...everyOptIn, 'deck-library:stackName': 'DeckLibraryStaging' }, false);
    try {
      const read = (dir: string, stack: string) => resourcesIn(dir, stack);
      const a = read(one.dir, 'DeckLibrary');
      const b = read(two.dir, 'DeckLibraryStaging');
      const named = namesIn(a, 'eu-west-1');
      expect(named.length).toBeGreaterThanOrEqual(3);
      for (const [id, name] of named) {
        expect([id, name.includes('DeckLibrary')]).toEqual([id, true]);
        expect([id, name.includes('eu-west-1')]).toEqual([id, true]);
      }
      const all = [...named, ...namesIn(a, 'us-east-1'), ...namesIn(b, 'eu-west-1')].map(([, name]) => name);
      expect(all.filter((name, i) => all.indexOf(name) !== i)).toEqual([]);
    } finally {
      for (const { dir } of [one, two]) rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("AWS's own rules at synth", () => {
  it('cdk-nag and the Control Tower proactive controls (cfn-guard) pass, but for the exceptions written with their reasons', () => {
    const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as {
      pluginReports: { pluginName: string; conclusion: string; violations: unknown[]; suppressedViolations?: { ruleName: string }[] }[];
    };
    const byPlugin = Object.fromEntries(report.pluginReports.map((p) => [p.pluginName, p]));
    for (const plugin of ['AwsSolutions', 'cdk-validator-cfnguard']) {
      expect(byPlugin[plugin]?.conclusion, plugin).toBe('success');
      expect(byPlugin[plugin]?.violations, plugin).toEqual([]);
    }
    // Every exception in use — lambda_inside_vpc_check's functions are all in nested stacks, which CDK does not hand a
    // plugin (infra/guard.ts EveryTemplateGuard does).
    const suppressed = new Set((byPlugin['cdk-validator-cfnguard']?.suppressedViolations ?? []).map((v) => v.ruleName));
    expect([...suppressed].sort()).toEqual(Object.keys(GUARD_EXCEPTIONS).sort());
    for (const reason of Object.values(GUARD_EXCEPTIONS)) expect(reason.length).toBeGreaterThan(60);
  });
});

describe('workers', () => {
  const STREAM_READ = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'];

  it('the decks table streams new and old images, the accounts table keys only; each worker follows its table with its filters, retried from its first failed record, discarded records kept in a queue; at most two workers a stream', () => {
    const decks = resources[tableRef(DECKS) as string].Properties;
    expect(decks.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    // Keys only: no key item's hash travels in a stream record.
    expect(resources[tableRef(ACCOUNTS) as string].Properties.StreamSpecification).toEqual({ StreamViewType: 'KEYS_ONLY' });
    // The stream workers' mappings (the webhook deliveries' queue has its own: a stream's names where it starts reading).
    const mappings = byType('AWS::Lambda::EventSourceMapping')
      .map(([, m]) => m.Properties)
      .filter((m) => m.StartingPosition !== undefined);
    expect(mappings).toHaveLength(workers.length);
    // "You can subscribe up to two Lambda functions to the same DynamoDB stream" (DynamoDB developer guide,
    // "DynamoDB Streams and AWS Lambda triggers"): more may be throttled.
    const perStream = new Map<string, number>();
    for (const m of mappings) perStream.set(JSON.stringify(m.EventSourceArn), (perStream.get(JSON.stringify(m.EventSourceArn)) ?? 0) + 1);
    expect(Math.max(...perStream.values())).toBeLessThanOrEqual(2);
    for (const worker of workers) {
      const mapping = mappings.find((m) => m.FunctionName.Ref === functionId(worker));
      expect(mapping, worker.name).toMatchObject({
        EventSourceArn: { 'Fn::GetAtt': [tableRef(worker.table === 'decks' ? DECKS : ACCOUNTS), 'StreamArn'] },
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: worker.batchSize,
        BisectBatchOnFunctionError: false,
      });
      // Every worker names its first unfinished record (partial batch response): one item's failure is
      // retried from there, and the rest of the batch is not undone.
      expect(mapping.FunctionResponseTypes, worker.name).toEqual(['ReportBatchItemFailures']);
      // Every mapping bounds a failing record (contract §11.4, issue 42): its age and its batch's retries, then
      // recorded in the queue — never Lambda's defaults (-1, -1: retried until the record expires, 24 hours).
      // AWS's "Lambda parameters for Amazon DynamoDB event source mappings": MaximumRecordAgeInSeconds -1 or
      // 60-604,800, MaximumRetryAttempts -1 or 0-10,000; ParallelizationFactor at most 10.
      expect(mapping.MaximumRetryAttempts, worker.name).toBe(worker.maxRetries);
      expect(mapping.MaximumRecordAgeInSeconds, worker.name).toBe(worker.maxRecordAgeSeconds);
      expect([worker.name, worker.maxRecordAgeSeconds >= 60 && worker.maxRecordAgeSeconds <= 3600]).toEqual([worker.name, true]);
      expect([worker.name, worker.maxRetries >= 0 && worker.maxRetries <= 10_000]).toEqual([worker.name, true]);
      expect(mapping.ParallelizationFactor, worker.name).toBe(worker.parallelization);
      expect(worker.parallelization ?? 1).toBeLessThanOrEqual(10);
      // An erasure step that keeps failing is given up on within an hour (the queue's alarm shows it), and
      // erasures of other accounts run beside it meanwhile.
      if (worker.name === 'accountErasure') {
        expect(mapping.MaximumRecordAgeInSeconds).toBeLessThanOrEqual(3600);
        expect(mapping.ParallelizationFactor).toBeGreaterThan(1);
      }
      expect(mapping.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0]).toMatch(/^DiscardedChanges/);
      expect(mapping.FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern))).toEqual(worker.filters);
      // Records gathered for the worker's batching window (the view log's 30 s), or handed over at once.
      expect(mapping.MaximumBatchingWindowInSeconds, worker.name).toBe(worker.batchingWindowSeconds);
    }
    const [, queue] = byType('AWS::SQS::Queue')[0] ?? [];
    expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
  });

  it("views: the access log's subscription filter feeds countViews, invoked asynchronously: 2 retries within 6 hours, then the queue of discarded work", () => {
    // AWS::Logs::SubscriptionFilter delivers a log group's matching events to a Lambda function (CloudWatch
    // Logs user guide, "Real-time processing of log data with subscriptions"); AWS::Lambda::EventInvokeConfig
    // bounds the asynchronous retries (at most 2, events kept at most 6 hours) and names the on-failure destination.
    const subscriptions = byType('AWS::Logs::SubscriptionFilter');
    expect(subscriptions).toHaveLength(1);
    const filter = subscriptions[0]?.[1];
    const [accessLogs] = byType('AWS::Logs::LogGroup').find(([id]) => id.startsWith('AccessLogs')) as [string, unknown];
    expect(filter.Properties.LogGroupName).toEqual({ Ref: accessLogs });
    expect(filter.Properties.FilterPattern).toBe(subscriptionPattern(VIEW_SUBSCRIPTION));
    expect(filter.Properties.FilterPattern).toBe(
      '{ ($.routeKey = "GET /api/v1/decks/{share_slug}" || $.routeKey = "GET /d/{share_slug}") && $.status = "200" }',
    );
    expect(filter.Properties.DestinationArn).toEqual({ 'Fn::GetAtt': [functionId(VIEW_SUBSCRIPTION), 'Arn'] });
    const invokeConfig = invokeConfigOf(VIEW_SUBSCRIPTION);
    expect(invokeConfig.Properties).toMatchObject({
      FunctionName: { Ref: functionId(VIEW_SUBSCRIPTION) },
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 21_600,
    });
    expect(invokeConfig.Properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0]).toMatch(/^DiscardedChanges/);
    // Its role: exactly its grants (a batch's marker, the view logs).
    expect(
      dynamo(VIEW_SUBSCRIPTION)
        .flatMap((s: { Action: string | string[] }) => [s.Action].flat())
        .sort(),
    ).toEqual(['dynamodb:PutItem', 'dynamodb:UpdateItem']);
  });

  it("the views of the week: a schedule invokes the daily opener at midnight, UTC, asynchronously (2 retries, then the queue of discarded work); its role reads the trending index, opens decks' view counts (read in bulk) and rewrites the boards only", () => {
    // AWS::Events::Rule with a cron ScheduleExpression (six fields: minutes hours day-of-month month
    // day-of-week year; scheduled rules run in UTC: EventBridge user guide, "Using cron and rate expressions
    // to schedule rules in Amazon EventBridge") targets the function.
    const rules = byType('AWS::Events::Rule');
    expect(rules).toHaveLength(DAILY_WORKERS.length);
    const rule = rules.find(([id]) => id.startsWith('OpenViewDaySchedule'))?.[1];
    expect(rule.Properties.ScheduleExpression).toBe('cron(0 0 * * ? *)');
    expect(rule.Properties.Targets).toHaveLength(1);
    expect(rule.Properties.Targets[0].Arn).toEqual({ 'Fn::GetAtt': [functionId(DAY_OPENER), 'Arn'] });
    const invokeConfig = invokeConfigOf(DAY_OPENER);
    expect(invokeConfig.Properties).toMatchObject({ FunctionName: { Ref: functionId(DAY_OPENER) }, MaximumRetryAttempts: 2 });
    expect(invokeConfig.Properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0]).toMatch(/^DiscardedChanges/);
    const statements = dynamo(DAY_OPENER);
    expect(statements.flatMap((s: { Action: string | string[] }) => [s.Action].flat()).sort()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    const update = statements.find((s: { Action: string | string[] }) => [s.Action].flat().includes('dynamodb:UpdateItem'));
    expect(update.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys']).toEqual([VIEW_COUNT.grant]);
    // Its writes but the counts' are the boards' (lib/store/boards.ts), and nothing else.
    const put = statements.find((s: { Action: string | string[] }) => [s.Action].flat().includes('dynamodb:PutItem'));
    expect(put.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys']).toEqual([BOARD.grant]);
    const query = statements.find((s: { Action: string | string[] }) => [s.Action].flat().includes('dynamodb:Query'));
    expect(JSON.stringify(query.Resource)).toContain(`index/${SORT_INDEX.trending.index}`);
  });

  it("the catalogue kept current (contract §11.5): a daily schedule invokes the refresh, which may write only the catalogue's items; every function of the catalogue reads the published one (its env says so, its role may read those items and no more of them)", () => {
    const rule = byType('AWS::Events::Rule').find(([id]) => id.startsWith(`${pascal(CATALOGUE_REFRESH.name)}Schedule`))?.[1];
    expect(rule.Properties.ScheduleExpression).toBe(`cron(${CATALOGUE_REFRESH.at.minute} ${CATALOGUE_REFRESH.at.hour} * * ? *)`);
    expect(rule.Properties.Targets[0].Arn).toEqual({ 'Fn::GetAtt': [functionId(CATALOGUE_REFRESH), 'Arn'] });
    expect(invokeConfigOf(CATALOGUE_REFRESH).Properties).toMatchObject({ MaximumRetryAttempts: 2 });
    expect(resources[functionId(CATALOGUE_REFRESH)].Properties.Timeout).toBe(900);
    const writes = dynamo(CATALOGUE_REFRESH).filter((st: { Action: string | string[] }) => [st.Action].flat().includes('dynamodb:PutItem'));
    expect(
      writes.map(
        (st: { Condition: Record<string, Record<string, unknown>> }) => st.Condition['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'],
      ),
    ).toEqual([[CATALOGUE.grant]]);
    const readers = [...routes, CATALOGUE_REFRESH].filter((r) => r.catalogue);
    expect(readers.length).toBeGreaterThan(20);
    for (const reader of readers) {
      expect(resources[functionId(reader)].Properties.Environment.Variables.CATALOGUE_PUBLISHED, reader.name).toBe('on');
      const reads = dynamo(reader).filter((st: { Condition?: Record<string, Record<string, unknown>> }) =>
        JSON.stringify(st.Condition ?? {}).includes(CATALOGUE.grant),
      );
      expect(reads.flatMap((st: { Action: string | string[] }) => [st.Action].flat()).sort(), reader.name).toEqual(
        reader === CATALOGUE_REFRESH ? ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'] : ['dynamodb:GetItem', 'dynamodb:Query'],
      );
    }
    // A function without the catalogue reads none of it.
    for (const route of routes.filter((r) => !r.catalogue)) {
      expect(resources[functionId(route)].Properties.Environment?.Variables?.CATALOGUE_PUBLISHED, route.name).toBeUndefined();
      expect(JSON.stringify(statements(route)), route.name).not.toContain(CATALOGUE.grant);
    }
  });

  it("each worker's role: exactly its grants, and reading its table's stream (nothing else of it)", () => {
    for (const worker of workers) {
      const granted = dynamo(worker).filter((s: { Action: string | string[] }) => ![s.Action].flat().every((a) => STREAM_READ.includes(a)));
      expect(granted.flatMap((s: { Action: string | string[] }) => [s.Action].flat()).sort(), worker.name).toEqual(
        grantsOf(worker)
          .flatMap((g) => g.actions.map((a) => `dynamodb:${a}`))
          .sort(),
      );
      for (const s of granted) {
        if (JSON.stringify(s.Resource).includes('/index/')) continue;
        expect(s.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'].length, worker.name).toBeGreaterThan(0);
      }
      const stream = dynamo(worker).filter((s: { Action: string | string[] }) => [s.Action].flat().every((a) => STREAM_READ.includes(a)));
      expect(stream.length, worker.name).toBeGreaterThan(0);
      expect([...new Set(stream.flatMap((s: { Action: string | string[] }) => [s.Action].flat()))].sort()).toEqual(STREAM_READ);
      for (const s of stream)
        expect(s.Resource, worker.name).toEqual({ 'Fn::GetAtt': [tableRef(worker.table === 'decks' ? DECKS : ACCOUNTS), 'StreamArn'] });
      expect(JSON.stringify(statements(worker))).not.toMatch(/dynamodb:\*|Scan/);
    }
  });
});

describe('least privilege', () => {
  it("each function has exactly its route's grants: no wildcard actions, no Scan", () => {
    for (const route of routes) {
      const actions = dynamo(route)
        .flatMap((s: { Action: string | string[] }) => [s.Action].flat())
        .sort();
      expect(actions, route.name).toEqual(
        grantsOf(route)
          .flatMap((g) => g.actions.map((a) => `dynamodb:${a}`))
          .sort(),
      );
      expect(JSON.stringify(statements(route))).not.toMatch(/dynamodb:\*|Scan|"\*"/);
    }
  });

  it('of the accounts table, owner routes read only API keys (auth), cursor routes only the cursor keys, the account routes their account and keys, and nothing else', () => {
    // The account routes: the export reads the account item; the key list reads its index; a key create
    // puts the key, a revoke updates it, each with the account's list of its live keys (store/accounts.ts),
    // nothing of any other item kind.
    const keyRoutes: Record<string, { Action: string | string[]; keys?: string[] }[]> = {
      exportAccount: [{ Action: 'dynamodb:GetItem', keys: ['USER#*'] }],
      listKeys: [{ Action: 'dynamodb:Query', keys: undefined }],
      createKey: [
        { Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], keys: ['USER#*'] },
        { Action: 'dynamodb:PutItem', keys: ['KEY#*'] },
      ],
      revokeKey: [
        { Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], keys: ['USER#*'] },
        { Action: 'dynamodb:UpdateItem', keys: ['KEY#*'] },
      ],
    };
    // The collection's routes (contract §12.3): the collection item, under the account's key; missing finds a deck by its slug.
    keyRoutes.readCollection = [{ Action: 'dynamodb:GetItem', keys: ['USER#*'] }];
    keyRoutes.putCollection = [{ Action: ['dynamodb:GetItem', 'dynamodb:PutItem'], keys: ['USER#*'] }];
    keyRoutes.patchCollection = keyRoutes.putCollection;
    keyRoutes.readMissing = keyRoutes.readCollection;
    // Search's buildable_by: that account's collection (its key read as an owner route's is: keyFor).
    keyRoutes.searchDecks = keyRoutes.readCollection;
    // The erasure: its record, the account marked and its keys revoked, the keys found by the account's index.
    keyRoutes.eraseAccount = [
      { Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], keys: ['ERASE#*'] },
      { Action: 'dynamodb:UpdateItem', keys: ['USER#*', 'KEY#*'] },
      { Action: 'dynamodb:Query', keys: undefined },
    ];
    for (const route of routes) {
      const onAccounts = dynamo(route).filter((s: { Resource: unknown }) => onTable(s, ACCOUNTS));
      const expected = [
        ...(route.scope || route.keyFor ? [{ Action: 'dynamodb:GetItem', keys: ['KEY#*'] }] : []),
        ...(route.cursors ? [{ Action: ['dynamodb:GetItem', 'dynamodb:PutItem'], keys: ['CURSORKEYS'] }] : []),
        ...(keyRoutes[route.name] ?? []),
      ];
      expect(
        onAccounts.map((s: { Action: unknown; Condition: Record<string, Record<string, string[]>> }) => ({
          Action: s.Action,
          keys: s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'],
        })),
        route.name,
      ).toEqual(expected);
    }
  });

  it('the public read cannot touch accounts; search reads only its indexes, the boards and search entries', () => {
    const shared = routes.find((r) => r.name === 'readSharedDeck') as Route;
    expect(dynamo(shared).some((s: { Resource: unknown }) => onTable(s, ACCOUNTS))).toBe(false);
    // Of the decks table, search reads only its indexes, a board and a page's entries (of accounts, only the
    // cursor keys: the test above). (Besides the published catalogue's items, which every function of the
    // catalogue reads: its own test.) It writes nothing.
    const search = dynamo(routes.find((r) => r.name === 'searchDecks') as Route).filter(
      (s: { Resource: unknown; Condition?: unknown }) => onTable(s, DECKS) && !JSON.stringify(s.Condition ?? {}).includes(CATALOGUE.grant),
    );
    expect(search).toHaveLength(3);
    const [indexes, boards, entries] = search as {
      Action: string;
      Resource: unknown;
      Condition?: Record<string, Record<string, unknown>>;
    }[];
    expect(indexes?.Action).toBe('dynamodb:Query');
    expect(JSON.stringify(indexes?.Resource)).toMatch(
      /index\/search_by_date.*index\/search_by_views.*index\/search_by_likes.*index\/search_by_trending/,
    );
    expect([boards?.Action, boards?.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']]).toEqual([
      'dynamodb:GetItem',
      [BOARD.grant],
    ]);
    expect([entries?.Action, entries?.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']]).toEqual([
      'dynamodb:BatchGetItem',
      [SEARCH_ENTRY.grant],
    ]);
  });

  it("only delete and erasure may delete decks: any other DeleteItem is held to search entries, like items (under the deck or the account) or events' entries and their marks", () => {
    for (const route of routes) {
      for (const s of dynamo(route).filter((x: { Action: string | string[] }) => [x.Action].flat().includes('dynamodb:DeleteItem'))) {
        const keys: string[] = s.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'];
        if (route.name === 'deleteDeck' || route.name === 'eraseAccount')
          expect(keys.every((k) => ['USER#*', 'SEARCH#*', 'COUNT#*', VIEW_COUNT.grant].includes(k))).toBe(true);
        else
          expect(
            keys.every((k) => ['SEARCH#*', 'LIKE#*', 'LIKED#*', EVENT.grant, ENTERED.grant, WEBHOOK.grant, HOOKS.grant].includes(k)),
            route.name,
          ).toBe(true);
      }
    }
  });

  it('every grant is held to leading keys, but queries of named indexes', () => {
    for (const route of routes) {
      for (const s of dynamo(route)) {
        const keys: string[] | undefined = s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
        if (keys) {
          expect(keys.length, route.name).toBeGreaterThan(0);
          continue;
        }
        // Without leading keys: only queries, and only of named indexes (a query of the table is held to its keys: history).
        expect(
          [s.Action].flat().every((a: string) => a === 'dynamodb:Query'),
          route.name,
        ).toBe(true);
        for (const resource of [s.Resource].flat()) expect(JSON.stringify(resource), route.name).toMatch(/\/index\//);
      }
    }
  });
});

describe('bundles', () => {
  // Budgets (minified bytes): functions on the store, or reading the cursor key, carry the AWS SDK; the others must not.
  // The document's function carries its generator (the shapes and valibot's JSON Schema conversion) and every
  // route's declaration, so it grows with the API (130 KB at 38 routes, with the text export and Discord); a page
  // or an image drawn without the store (a deck code's) carries its sheet and its HTML, or its SVG and the renderer's glue.
  // Discord's interactions function reads any paste (the text reader) and answers in Discord's shapes beside the facts.
  // A page, an image and Discord's answers carry every label in the 12 served languages (rules/labels.ts: 41 KB
  // minified, most of it Japanese, Korean and Chinese in UTF-8): any request may ask for any of them.
  // A function of the catalogue reads the published one (contract §11.5) with two signed requests of its own
  // (store/catalogue-read.ts: aws4fetch, 7 KB minified, and the reader, 2 KB) rather than the SDK (200 KB).
  // A code's image and page read a link in a code's place too (issue 56: readCodeImage went from under 151,000 bytes
  // to 151,649 with it). A code's facts name their language whatever the catalogue, and say which in Content-Language
  // (issue 56 item 2: readCode went from under 95,000 bytes to 95,024). Discord's /card finds a part of a name and tells
  // alike cards apart (issue 56 item 3: discordInteractions went from under 137,000 bytes to 138,128). The document names
  // the bulk files' shapes and route (issue 57: openApi went from under 136,000 bytes to 137,452). An image is drawn
  // at an embed's size too, its cards as running text (issue 56 item 1: readCodeImage went from 151,649 bytes to 157,546).
  // A deck's legality says each format's verdict (issue 58: readCode went from under 96,000 bytes to 96,292), and the
  // document names the collection's four routes and shapes (issue 58: openApi went from 137,452 bytes to 142,262), and
  // search's format, buildable_by and missing_max and an item's `missing` (issue 58: to 143,345), and the two
  // likeness routes and their shape (issue 58: to 144,855). Routes declare their cache lifetimes (issue 59 item 3:
  // the declarations' strings ride along with a route's: readCodeImage to 159,233 bytes, openApi to 145,708).
  // Discord's function reads the store since it names a /deck's closest deck (issue 58): a store bundle, its budget.
  // A quoted line is cut at a code point, what a reader cannot see shown as U+FFFD, and an export's metadata line read
  // as a deck's export reads it (readCode from under 97,000 bytes to 98,226). The embed image sets a deck in one of
  // three frames and a title on two lines where one cannot hold it (readCodeImage from under 160,000 to 161,833). The
  // document says what the export leaves out for a key without collection:read, and the longer descriptions of the
  // image's default and the collection's retries, and the bulk listing's Scryfall shape and one file's route (openApi from
  // under 146,000 to 148,105). A deck's plain fields declared once (rules/deck-fields.ts: each field's body shape beside
  // its answer's, so the answers' schemas bring the three body shapes, tags' normalising among them): readCode from
  // under 99,000 to 101,729; readCodeImage from under 162,000 to 165,928, with an owner's text drawn as its faces
  // can (a character they lack as "?") and the byline's card count kept whole. A language a file (lib/rules/i18n/): its
  // locale and faction names ride with its labels, and plural forms name their CLDR categories — the two image
  // functions to 372,475 (readDeckImage) and 167,083 (readCodeImage) bytes; the functions that draw nothing no longer
  // bundle the labels at all (createDeck 377,263 with them, about 335,000 without). A code's facts carry its
  // archetype: the rules in use (the game's and the demo's, as data) and the classifier, not the rules' checks —
  // readCode from 102,233 bytes to 105,404. A deck's archetype on its answers, search by it and its label on pages in the
  // 12 languages (every label rides with a page's function, the image's too): readDeckImage from 372,845 bytes to
  // 373,342 (esbuild here), over the store budget of 373,000 by 342 bytes — now 374,000. The document names the
  // archetype's shape, search's archetype= and the archetypes' figures route and shapes: openApi from 148,058 bytes to
  // 149,955 (esbuild here) — its budget now 151,000. One archetype's route, and each archetype's trend, samples and pages:
  // 152,462 — now 154,000 (a path parameter's declaration made pure so that only the routes naming it carry it:
  // readCodeImage 168,423 → 167,389). The document carries every route's declaration and shapes: with the events' nine
  // routes and their shapes, 162,803 bytes — its budget 164,000. The feed's route and the client's line in the
  // document's description: 164,326 — now 166,000.
  const BUDGET = { store: 374_000, plain: 106_000, drawn: 167_500, openApi: 176_000 };
  /** Whether a function reaches the store through the SDK: any grant but the published catalogue's (signed requests of its own). */
  const sdkStore = (route: Grantee) => grantsOf(route).some((g) => g !== CATALOGUE_GRANT);
  const budgetOf = (route: Grantee & { cursors?: boolean; catalogue?: boolean; success?: { contentType?: string } }) =>
    sdkStore(route)
      ? BUDGET.store
      : route.name === 'openApi'
        ? BUDGET.openApi
        : route.catalogue && ['text/html', 'image/png'].includes(route.success?.contentType ?? '')
          ? BUDGET.drawn
          : BUDGET.plain;
  // A card's name no archetype rules file names (the demo rules, data bundled where a deck's archetype is answered, name
  // their cards): in a bundle, it would be the catalogue's.
  const rulesText = readdirSync('lib/archetypes')
    .map((f) => readFileSync(join('lib/archetypes', f), 'utf8'))
    .join('\n');
  const DEMO_CARD_NAME = demoCatalogue().cards.find((c) => !c.derived && !rulesText.includes(c.name))?.name as string;

  it("docs/deploy.md states the store's bundles' budget this test holds", () => {
    expect(readFileSync(join(import.meta.dirname, '../../docs/deploy.md'), 'utf8')).toContain(
      `A DynamoDB function's bundle stays within ${BUDGET.store.toLocaleString('en-US')} bytes`,
    );
  });

  it("built at once for the synthesis, a function's asset is the one CDK's NodejsFunction makes of its handler alone with the same settings: the same asset hash", () => {
    // The reference: NodejsFunction as the stack used it (esbuild's CLI a function, its aliases as arguments, the
    // catalogue copied by an after-bundling hook), in an output folder as deep as the base synth's (a source map's
    // paths, and so the hash, depend on where it is written). A route on the store, one of the catalogue, a worker.
    const dir = mkdtempSync(join(tmpdir(), 'deck-library-ref-'));
    try {
      const app = new App({ outdir: dir });
      const stack = new Stack(app, 'Reference');
      const catalogue = join(outdir, 'catalogue.compiled.json');
      const sample = ['createDeck', 'readCode', 'storeChanges'].map(
        (name) => [...routes, ...workers].find((f) => f.name === name) as Grantee & { handler: string; catalogue?: boolean },
      );
      const made = sample.map(
        (fn) =>
          new NodejsFunction(stack, `${pascal(fn.name)}Reference`, {
            entry: join(PROJECT_ROOT, fn.handler),
            depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
            projectRoot: PROJECT_ROOT,
            runtime: RUNTIME,
            bundling: {
              format: OutputFormat.ESM,
              target: BUNDLE.target,
              mainFields: [...BUNDLE.mainFields],
              minify: BUNDLE.minify,
              sourceMap: BUNDLE.sourcemap,
              sourcesContent: BUNDLE.sourcesContent,
              externalModules: [],
              banner: BUNDLE.banner,
              esbuildArgs: Object.fromEntries(Object.entries(BUNDLE.alias).map(([from, to]) => [`--alias:${from}`, to])),
              commandHooks: {
                beforeBundling: () => [],
                beforeInstall: () => [],
                afterBundling: (_input: string, output: string) =>
                  fn.catalogue ? [`cp "${catalogue}" "${join(output, BUNDLED_CATALOGUE)}"`] : [],
              },
            },
          }),
      );
      const referenceResources = Template.fromStack(stack).toJSON().Resources;
      for (const [i, fn] of sample.entries()) {
        const id = stack.getLogicalId(made[i]?.node.defaultChild as CdkResource);
        const reference = referenceResources[id].Properties.Code.S3Key;
        const ours = resources[functionId(fn)].Properties.Code.S3Key;
        expect(reference).toMatch(/^[0-9a-f]{64}\.zip$/);
        expect([fn.name, ours]).toEqual([fn.name, reference]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a function whose handler is not a module of functions/ (where every bundle is built from) is refused at synth, naming it', () => {
    const stack = new Stack(new App({ context: TEMPLATE_ONLY }), 'Refused');
    const spec = { ...(routes.find((r) => r.name === 'createDeck') as Route), handler: 'lib/elsewhere.ts', serves: 'nothing' };
    expect(
      () =>
        new ServiceFunction(stack, 'ElsewhereFunction', {
          spec,
          tableArn: () => 'arn:aws:dynamodb:us-east-1:123456789012:table/x',
          environment: {},
          catalogueFile: join(outdir, 'catalogue.compiled.json'),
          logRetention: RetentionDays.ONE_MONTH,
        }),
    ).toThrow(/createDeck: its handler lib\/elsewhere\.ts is not a module of functions\//);
  });

  it('report: size and cold import time of each bundle (routes and workers); within budget; catalogue only where needed', () => {
    const rows: string[] = [];
    const all: (Grantee & { catalogue?: boolean; cursors?: boolean })[] = [...routes, ...workers];
    for (const route of all) {
      const dir = assetDir(route);
      const bundle = join(dir, 'index.mjs');
      const size = statSync(bundle).size;
      const code = readFileSync(bundle, 'utf8');
      const usesStore = sdkStore(route);
      const ms = Number(
        execFileSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `const t=performance.now();await import(${JSON.stringify(bundle)});console.log((performance.now()-t).toFixed(0))`,
          ],
          {
            // As Lambda runs it: a catalogue function finds its shipped catalogue (loaded at init).
            env: {
              ...process.env,
              NODE_NO_WARNINGS: '1',
              AWS_REGION: 'eu-west-1',
              LAMBDA_TASK_ROOT: dir,
              ...(route.catalogue ? { CATALOGUE_FILE: join(dir, 'catalogue.json') } : {}),
            },
            encoding: 'utf8',
          },
        ).trim(),
      );
      rows.push(
        `${route.name.padEnd(15)} ${String(Math.round(size / 1024)).padStart(4)} KiB  import ${String(ms).padStart(4)} ms  ${route.catalogue ? 'catalogue' : ''}`,
      );
      expect(size, route.name).toBeLessThanOrEqual(budgetOf(route));
      expect(existsSync(join(dir, 'catalogue.json')), route.name).toBe(route.catalogue === true);
      // What it ships beside its bundle is there (found by LAMBDA_TASK_ROOT, as Lambda sets it).
      for (const { to } of shippedFiles((route as Grantee & { files?: readonly string[] }).files))
        expect(existsSync(join(dir, to)), `${route.name}: ${to}`).toBe(true);
      // Its fonts cut to the catalogue's characters (the demo catalogue's here): each far under the whole
      // face (10 MB), and a glyph for every character of every card name in every language.
      // Each face is cut to its own languages' names (Korean to the Korean names, not the Chinese ones).
      for (const { file: font, languages } of (route as Grantee & { subsetFonts?: readonly SubsetFont[] }).subsetFonts ?? []) {
        const cut = readFileSync(join(dir, basename(font)));
        expect(cut.length, font).toBeLessThan(statSync(font).size / 20);
        const metrics = fontMetrics(new Uint8Array(cut));
        const names = demoCatalogue().cards.flatMap((c) => languages.map((l) => cardName(c, l)));
        const missing = [...new Set(names.join(''))].filter((ch) => !metrics.has(ch.codePointAt(0) as number));
        expect(missing, font).toEqual([]);
        const others = demoCatalogue().cards.flatMap((c) =>
          Object.entries(c.names ?? {})
            .filter(([l]) => !languages.includes(l))
            .map(([, n]) => n),
        );
        const foreign = [...new Set(others.join(''))].filter(
          (ch) => (ch.codePointAt(0) as number) > 0x2e80 && !names.join('').includes(ch),
        );
        expect(
          foreign.filter((ch) => metrics.has(ch.codePointAt(0) as number)),
          `${font}: other languages' characters`,
        ).toEqual([]);
      }
      // No catalogue data in any bundle's code: it ships as a file, and only to the functions above.
      expect(code.includes(DEMO_CARD_NAME), route.name).toBe(false);
      if (!route.catalogue) expect(code.includes('OnlySpawnable'), route.name).toBe(false);
      // node:http(s) only through their CommonJS exports (infra/aliases/http.cjs, https.cjs): an ESM import of either would load undici at init.
      expect(code.match(/from\s*"node:https?"|import\(\s*"node:https?"\)/g) ?? [], route.name).toEqual([]);
      if (usesStore) expect(code, route.name).toContain('getBuiltinModule("node:http")');
      // Credentials from the environment only (infra/aliases/credentials.ts): no SSO, profiles or instance metadata.
      for (const chainOnly of ['sso_start_url', 'credential_process', 'AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_WEB_IDENTITY_TOKEN_FILE'])
        expect(code.includes(chainOnly), `${route.name}: ${chainOnly}`).toBe(false);
      // No Secrets Manager client anywhere: the cursor keys are an item of the store (lib/store/cursor-keys.ts).
      expect(code.includes('GetSecretValue'), route.name).toBe(false);
    }
    console.log(`bundle report (minified index.mjs):\n${rows.join('\n')}`);
  });
});

describe('the built bundles run as Lambda runs them', () => {
  /** Invokes a bundle's handler in a fresh Node process, with the function's own environment. */
  function run(route: Route, url: string, method = 'GET', store: Record<string, string> = { DYNAMODB_ENDPOINT: inject('dynamoEndpoint') }) {
    const { route: matched, params } = matchRoute(method, new URL(url, 'http://x').pathname);
    expect(matched.name).toBe(route.name);
    const event = toEvent({ method, url, headers: {}, body: Buffer.alloc(0) }, matched, params);
    const dir = assetDir(route);
    const script = `const { handler } = await import(${JSON.stringify(join(dir, 'index.mjs'))});
      const r = await handler(JSON.parse(process.env.EVENT), { ...JSON.parse(process.env.CONTEXT), getRemainingTimeInMillis: () => 9000 });
      console.log(JSON.stringify(r));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dir,
      env: {
        ...process.env,
        NODE_NO_WARNINGS: '1',
        POWERTOOLS_LOG_LEVEL: 'ERROR',
        EVENT: JSON.stringify(event),
        CONTEXT: JSON.stringify(lambdaContext(matched)),
        LAMBDA_TASK_ROOT: dir,
        ...(route.catalogue ? { CATALOGUE_FILE: join(dir, 'catalogue.json') } : { CATALOGUE_FILE: '' }),
        DYNAMODB_ENDPOINT: '',
        ...store,
      },
      encoding: 'utf8',
    });
    const r = JSON.parse(out.trim().split('\n').at(-1) as string);
    return { status: r.statusCode, headers: r.headers, body: JSON.parse(r.body) };
  }
  const named = (name: string) => routes.find((r) => r.name === name) as Route;

  it('as in AWS: credentials from the environment (the only provider bundled), the store found by the SDK', () => {
    // No DYNAMODB_ENDPOINT: the client is the one deployed, configured by the environment Lambda gives it.
    const inAws = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_SESSION_TOKEN: 'session', AWS_REGION: 'eu-west-1' };
    const read = run(named('readSharedOtk'), '/api/v1/decks/zzzzzzzzzzzz/otk', 'GET', {
      ...inAws,
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
    });
    expect([read.status, read.body.error.code]).toEqual([404, 'deck_not_found']);
    // Without credentials there is nothing else to fall back on: the store is unavailable, and the answer says no more.
    const none = run(named('readSharedOtk'), '/api/v1/decks/zzzzzzzzzzzz/otk', 'GET', {
      AWS_REGION: 'eu-west-1',
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      HOME: '/nonexistent',
    });
    expect(none.status).toBeGreaterThanOrEqual(500);
    expect(JSON.stringify(none.body)).not.toMatch(/credential|stack|at \//i);
  });

  it('a cursor function reads its keys from the store at init without waiting on them; a failed read costs only the requests that need a key', async () => {
    // The function reaches the store through the fault proxy: its reads of the cursor keys can fail.
    const proxy = await startFaultProxy(inject('dynamoEndpoint'));
    // The only item this function reads is the key ring.
    const keysRead = () => proxy.seen.get('GetItem') ?? 0;
    const route = named('listCards');
    const dir = assetDir(route);
    // One process, many invokes (as one container serves them): events in on stdin, answers out on stdout.
    const script = `import { createInterface } from 'node:readline';
      const { handler } = await import(${JSON.stringify(join(dir, 'index.mjs'))});
      console.log('ready');
      for await (const line of createInterface({ input: process.stdin })) {
        const r = await handler(JSON.parse(line), { ...JSON.parse(process.env.CONTEXT), getRemainingTimeInMillis: () => 9000 });
        console.log('answer ' + JSON.stringify(r));
      }`;
    // Down from the start: init's read fails.
    proxy.set('GetItem', { ...THROTTLING.internal, match: 'CURSORKEYS' });
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dir,
      env: {
        ...process.env,
        NODE_NO_WARNINGS: '1',
        POWERTOOLS_LOG_LEVEL: 'ERROR',
        POWERTOOLS_METRICS_DISABLED: 'true',
        CONTEXT: JSON.stringify(lambdaContext(route)),
        CATALOGUE_FILE: join(dir, 'catalogue.json'),
        DYNAMODB_ENDPOINT: proxy.url,
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => (await lines.next()).value as string;
    const invoke = async (url: string) => {
      const { route: matched, params } = matchRoute('GET', new URL(url, 'http://x').pathname);
      child.stdin.write(`${JSON.stringify(toEvent({ method: 'GET', url, headers: {}, body: Buffer.alloc(0) }, matched, params))}\n`);
      let line = await next();
      while (!line.startsWith('answer ')) line = await next(); // the function's own log and metric lines
      const r = JSON.parse(line.slice('answer '.length));
      return { status: r.statusCode, headers: r.headers, body: JSON.parse(r.body) };
    };
    try {
      expect(await next()).toBe('ready');
      // Init asked for the keys before any request came.
      for (let i = 0; i < 100 && keysRead() === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(keysRead()).toBeGreaterThan(0);
      // The store refusing the read: a page that needs no cursor is answered; one that must sign a cursor is a 503 envelope.
      const one = await invoke('/api/v1/cards?q=volga%20grey');
      expect([one.status, one.body.meta.next_cursor]).toEqual([200, null]);
      const failed = await invoke('/api/v1/cards?limit=1');
      expect([failed.status, failed.body.error.code, failed.headers['retry-after']]).toEqual([503, 'service_unavailable', '1']);
      expect(JSON.stringify(failed.body)).not.toMatch(/injected|InternalServerError|at \//);
      // Back up: the next request reads again, and signs with the key the store holds.
      proxy.clear();
      const first = await invoke('/api/v1/cards?limit=1');
      expect(first.status).toBe(200);
      const { Item } = await documentClient().send(
        new GetCommand({ TableName: tableName(ACCOUNTS), Key: CURSOR_KEYS_KEY, ConsistentRead: true }),
      );
      const [key] = (Item?.keys ?? []) as CursorKey[];
      const [id, payload, tag] = (first.body.meta.next_cursor as string).split('.');
      expect(id).toBe(key?.id);
      expect(tag).toBe(
        createHmac('sha256', key?.secret as string)
          .update(`${id}.${payload}`)
          .digest()
          .subarray(0, 18)
          .toString('base64url'),
      );
      const read = proxy.seen.get('GetItem');
      const second = await invoke(`/api/v1/cards?limit=1&cursor=${first.body.meta.next_cursor}`);
      expect([second.status, second.body.meta.page]).toEqual([200, 2]);
      // Read once, then kept: no further read for the next cursor.
      expect(proxy.seen.get('GetItem')).toBe(read);
    } finally {
      child.kill();
      await proxy.close();
    }
  }, 60_000);

  it('not found, the catalogue from its shipped file, and a search on DynamoDB', () => {
    const missing = run(named('notFound'), '/api/v1/nowhere');
    expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
    const card = run(named('readCard'), '/api/v1/cards/2B');
    expect([card.status, card.body.data.name]).toEqual([200, 'Volga Grey Rifles']);
    const search = run(named('searchDecks'), '/api/v1/decks?limit=1');
    expect(search.status).toBe(200);
    expect(search.headers['x-request-id']).toBeTruthy();
  });
});

describe.skipIf(!hasRealCatalogue)('CATALOGUE_FILE at synth', () => {
  it('ships the chosen catalogue (one fetched from the GraphQL stand-in: names in the game’s 12 languages), compiled, to exactly the functions that need it; the image function its fonts cut to every character of those names', async () => {
    // The operator's path (README "A real catalogue"): deckctl catalogue fetch, then synth with the file.
    const standIn = await startKardsStandIn();
    const fetched = join(mkdtempSync(join(tmpdir(), 'fetched-')), 'cards.json');
    try {
      const run = await deckctl(['catalogue', 'fetch', '--out', fetched, '--endpoint', standIn.url]);
      expect(run.status, run.stderr).toBe(0);
    } finally {
      await standIn.close();
    }
    // From another working directory, its output folder relative to it (as `cdk synth` gives one): every bundle found.
    const { dir } = synth({ CATALOGUE_FILE: fetched }, {}, false, { fromElsewhere: true });
    try {
      const tpl = resourcesIn(dir);
      // Shipped compiled: checked at synth, so a function loads it with no schema validation.
      const chosen = loadCatalogueFile(fetched);
      expect([...chosen.languages].sort()).toEqual([...KARDS_LANGUAGES].sort());
      const compiled = compileCatalogue(chosen);
      for (const route of routes) {
        const id = Object.keys(tpl).find(
          (k) => tpl[k].Type === 'AWS::Lambda::Function' && k.startsWith(`${pascal(route.name)}Function`),
        ) as string;
        const asset = join(dir, tpl[id].Metadata['aws:asset:path']);
        const file = join(asset, 'catalogue.json');
        expect(existsSync(file) && readFileSync(file, 'utf8') === compiled, route.name).toBe(route.catalogue === true);
        const fonts = route.subsetFonts ?? [];
        if (fonts.length === 0) continue;
        // Every character of every name, in one of the faces the image draws with (Inter, or a cut one).
        const faces = [...(route.files ?? []).filter((f) => f.endsWith('.ttf')), ...fonts.map((f) => f.file)].map((f) =>
          fontMetrics(new Uint8Array(readFileSync(join(asset, basename(f))))),
        );
        const characters = new Set(chosen.cards.flatMap((c) => Object.values(c.names ?? {})).join(''));
        const missing = [...characters].filter((ch) => !faces.some((face) => face.has(ch.codePointAt(0) as number)));
        expect(missing, route.name).toEqual([]);
        // Each face cut to what it will draw: its own languages' names, not the CJK of the others' (the Korean
        // face once held every Chinese character of the catalogue).
        for (const { file, languages } of fonts) {
          const face = fontMetrics(new Uint8Array(readFileSync(join(asset, basename(file)))));
          const own = [
            ...chosen.cards.flatMap((c) => languages.map((l) => cardName(c, l))),
            ...languages.flatMap((l) => FACTIONS.map((f) => factionName(f.id, l))),
            ...languages.flatMap((l) => labelTexts(l)),
          ].join('');
          const foreign = [...new Set(chosen.cards.flatMap((c) => Object.values(c.names ?? {})).join(''))].filter(
            (ch) => (ch.codePointAt(0) as number) >= 0x2e80 && !own.includes(ch),
          );
          expect(foreign.length, file).toBeGreaterThan(0);
          expect(
            foreign.filter((ch) => face.has(ch.codePointAt(0) as number)),
            file,
          ).toEqual([]);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('the edge (contract §11.2): a CloudFront distribution derived from the route table', () => {
  /** The managed policies CloudFront documents: caching disabled, and every viewer header but Host. */
  const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
  const ALL_VIEWER_EXCEPT_HOST = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
  const config = () => byType('AWS::CloudFront::Distribution')[0]?.[1].Properties.DistributionConfig;
  const policyOf = (ref: { Ref: string }) => resources[ref.Ref].Properties;
  /** The bulk files' behaviour (contract §12.2): its path pattern. */
  const FILES = `/${BULK_FOLDER}/*`;
  /** The behaviours of the API's routes (every one but the bulk files'). */
  const apiBehaviours = () => config().CacheBehaviors.filter((b: { PathPattern: string }) => b.PathPattern !== FILES);
  /** A path of the route, its parameters filled. */
  const pathOf = (route: Route) => route.path.replace(/\{\w+\}/g, 'x1');

  it('a distribution by default, HTTPS only, compressed; none with edge=false', () => {
    expect(byType('AWS::CloudFront::Distribution')).toHaveLength(1);
    const d = config();
    for (const b of [d.DefaultCacheBehavior, ...apiBehaviours()]) {
      expect(b.ViewerProtocolPolicy).toBe('redirect-to-https');
      expect(b.Compress).toBe(true);
      expect(b.FunctionAssociations?.[0]?.EventType).toBe('viewer-request');
    }
    expect(d.Origins[0].CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    const { dir } = synth({}, { 'deck-library:edge': 'false', ...TEMPLATE_ONLY }, false);
    const without = resourcesIn(dir) as Record<string, { Type: string }>;
    expect(Object.values(without).filter((r) => r.Type.startsWith('AWS::CloudFront::'))).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  }, 300_000);

  it('the bulk files (contract §12.2): a private bucket — public access blocked, encrypted, TLS only, each file deleted within 7 days — that the edge reads by origin access control, keyed by the path alone and kept an hour', () => {
    // biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
    const [[bucketId, bucket]] = byType('AWS::S3::Bucket') as [[string, { Properties: Record<string, any> }]];
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe(
      'AES256',
    );
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      {
        Id: 'BulkFilesKept',
        Prefix: `${BULK_FOLDER}/`,
        ExpirationInDays: BULK_KEPT_DAYS,
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
        Status: 'Enabled',
      },
    ]);
    // biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
    const [[, policy]] = byType('AWS::S3::BucketPolicy') as [[string, { Properties: Record<string, any> }]];
    expect(policy.Properties.Bucket).toEqual({ Ref: bucketId });
    // biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
    const rules = policy.Properties.PolicyDocument.Statement as Record<string, any>[];
    // TLS only: every request without it denied.
    expect(rules).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    // The distribution alone reads, by origin access control.
    const reads = rules.filter((s) => s.Effect === 'Allow');
    expect(reads).toHaveLength(1);
    expect([reads[0]?.Principal, reads[0]?.Action]).toEqual([{ Service: 'cloudfront.amazonaws.com' }, 's3:GetObject']);
    expect(JSON.stringify(reads[0]?.Condition)).toContain('EdgeDistribution');
    const files = config().CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === FILES);
    expect(files).toBeDefined();
    const origin = config().Origins.find((o: { Id: string }) => o.Id === files.TargetOriginId);
    expect(origin.S3OriginConfig).toBeDefined();
    expect(origin.OriginAccessControlId).toBeDefined();
    const key = policyOf(files.CachePolicyId).CachePolicyConfig;
    expect(key.ParametersInCacheKeyAndForwardedToOrigin).toEqual({
      CookiesConfig: { CookieBehavior: 'none' },
      EnableAcceptEncodingBrotli: false,
      EnableAcceptEncodingGzip: false,
      HeadersConfig: { HeaderBehavior: 'none' },
      QueryStringsConfig: { QueryStringBehavior: 'none' },
    });
    // An hour at most (contract §12.2: a file the bucket deletes leaves the edge within the hour), as the files say.
    expect([key.MinTTL, key.DefaultTTL, key.MaxTTL]).toEqual([0, 3600, 3600]);
    // A file expires at its creation plus the rule's days, rounded up to the next midnight UTC (S3 User Guide): a
    // file of the daily run (04:45) is gone from the bucket and then the edge within the days contract §12.2 gives.
    const daily = Date.UTC(2026, 10, 29, 4, 45);
    const expiry = Math.ceil((daily + BULK_KEPT_DAYS * 86_400_000) / 86_400_000) * 86_400_000;
    expect(expiry + key.MaxTTL * 1000 - daily).toBeLessThanOrEqual(BULK_GONE_DAYS * 86_400_000);
    expect([files.ViewerProtocolPolicy, files.Compress, files.AllowedMethods]).toEqual(['redirect-to-https', false, ['GET', 'HEAD']]);
    // The export writes its files' folder and the listing signs links to it: nothing else of the bucket.
    for (const [who, actions] of [
      [BULK_EXPORT, ['s3:AbortMultipartUpload', 's3:PutObject']],
      [routeByName('readBulkData'), ['s3:GetObject']],
    ] as const) {
      const s3 = statements(who).filter((s: { Action: string | string[] }) => [s.Action].flat().some((a) => a.startsWith('s3:')));
      expect([who.name, [s3[0]?.Action].flat().sort(), s3.length]).toEqual([who.name, actions, 1]);
      expect(JSON.stringify(s3[0]?.Resource)).toContain(`/${BULK_FOLDER}/*`);
    }
  });

  it('every route takes the behaviour its declaration says: a cached one keyed by its declared query, or never cached', () => {
    const d = config();
    expect(d.DefaultCacheBehavior.CachePolicyId).toBe(CACHING_DISABLED);
    expect(d.DefaultCacheBehavior.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST);
    for (const route of routes.filter((r) => r.path !== '$default')) {
      // The first pattern the path matches, as CloudFront tries them in order.
      const behaviour = d.CacheBehaviors.find((b: { PathPattern: string }) => matchesPattern(b.PathPattern, pathOf(route)));
      if (route.edge !== 'cached') {
        expect([route.name, behaviour?.PathPattern]).toEqual([route.name, undefined]);
        continue;
      }
      expect(behaviour, route.name).toBeDefined();
      const key = policyOf(behaviour.CachePolicyId).CachePolicyConfig.ParametersInCacheKeyAndForwardedToOrigin;
      for (const q of declaredQuery(route)) expect(key.QueryStringsConfig.QueryStrings, route.name).toContain(q);
      expect(behaviour.AllowedMethods.sort()).toEqual(['GET', 'HEAD', 'OPTIONS']);
    }
  });

  it("a cached behaviour's key is its routes' declared query, the language, host and catalogue — nothing else; no Authorization, cookie or Host reaches its origin", () => {
    const behaviours = apiBehaviours();
    for (const b of behaviours) {
      // The routes whose requests take it: CloudFront takes the first behaviour a path matches (most specific first).
      const sharing = routes.filter(
        (r) => r.edge === 'cached' && behaviours.find((x: { PathPattern: string }) => matchesPattern(x.PathPattern, pathOf(r))) === b,
      );
      const key = policyOf(b.CachePolicyId).CachePolicyConfig.ParametersInCacheKeyAndForwardedToOrigin;
      const declared = [...new Set(sharing.flatMap(declaredQuery))].sort();
      expect([b.PathPattern, key.QueryStringsConfig.QueryStrings ?? []]).toEqual([b.PathPattern, declared]);
      expect(key.HeadersConfig.Headers.sort()).toEqual(['accept-language', 'x-deck-catalogue', 'x-forwarded-host']);
      expect(key.CookiesConfig.CookieBehavior).toBe('none');
      const forwarded = policyOf(b.OriginRequestPolicyId).OriginRequestPolicyConfig;
      expect(forwarded.CookiesConfig.CookieBehavior).toBe('none');
      expect(forwarded.QueryStringsConfig.QueryStringBehavior).toBe('none');
      const headers = forwarded.HeadersConfig.Headers as string[];
      for (const never of ['authorization', 'cookie', 'host'])
        expect([b.PathPattern, headers.includes(never)]).toEqual([b.PathPattern, false]);
    }
  });

  it('the root of the edge shows the reference page (its default root object); a custom domain is served by its certificate, SNI only, TLS 1.2 at least, and passes the rules the default domain is excused from', () => {
    expect(config().DefaultRootObject).toBe(routeByName('docsPage').path.slice(1));
    const excused = ['cloudfront_custom_ssl_certificate_check', 'cloudfront_sni_enabled_check', 'cloudfront_security_policy_check'];
    const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000';
    // The default synth excuses these three (its report: the rules ran and were acknowledged there).
    const base = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as {
      pluginReports: { pluginName: string; suppressedViolations?: { ruleName: string }[] }[];
    };
    const excusedThere = (base.pluginReports.find((p) => p.pluginName === 'cdk-validator-cfnguard')?.suppressedViolations ?? []).map(
      (v) => v.ruleName,
    );
    for (const rule of excused) expect([rule, excusedThere.includes(rule)]).toEqual([rule, true]);
    // Here the CloudFront controls alone, where those three are (each of the 237 rule files is a cfn-guard run over
    // every template: all of them took 70 s of this test).
    const cloudfrontRules = join(PROJECT_ROOT, 'node_modules/@cdklabs/cdk-validator-cfnguard/rules/control-tower/cfn-guard/cloudfront');
    const ruleText = readdirSync(cloudfrontRules)
      .map((f) => readFileSync(join(cloudfrontRules, f), 'utf8'))
      .join('\n');
    for (const rule of excused) expect([rule, ruleText.includes(`rule ${rule}`)]).toEqual([rule, true]);
    const { dir } = synth(
      {},
      { 'deck-library:domainNames': 'decks.example.org', 'deck-library:certificateArn': certificateArn, ...TEMPLATE_ONLY },
      { rules: [cloudfrontRules] },
    );
    try {
      // biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
      const custom = resourcesIn(dir) as Record<string, any>;
      const d = Object.values(custom).find((r) => r.Type === 'AWS::CloudFront::Distribution')?.Properties.DistributionConfig;
      expect(d.Aliases).toEqual(['decks.example.org']);
      expect(d.ViewerCertificate).toEqual({
        AcmCertificateArn: certificateArn,
        MinimumProtocolVersion: 'TLSv1.2_2021',
        SslSupportMethod: 'sni-only',
      });
      const report = JSON.parse(readFileSync(join(dir, 'validation-report.json'), 'utf8')) as {
        pluginReports: { pluginName: string; conclusion: string; violations: unknown[]; suppressedViolations?: { ruleName: string }[] }[];
      };
      const guard = report.pluginReports.find((p) => p.pluginName === 'cdk-validator-cfnguard');
      expect([guard?.conclusion, guard?.violations]).toEqual(['success', []]);
      const suppressed = new Set((guard?.suppressedViolations ?? []).map((v) => v.ruleName));
      for (const rule of excused) expect([rule, suppressed.has(rule)]).toEqual([rule, false]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it("the viewer-request function is the rules' negotiation (test/unit/edge-function.test.ts), carrying the shipped catalogue's version", () => {
    const [, fn] = byType('AWS::CloudFront::Function')[0] ?? [];
    expect(fn.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    // The catalogue's one version string (lib/store/catalogue-read.ts versionOf: 22 characters), as the functions name it.
    expect(fn.Properties.FunctionCode).toMatch(/headers\['x-deck-catalogue'\] = \{ value: '[A-Za-z0-9_-]{22}' \}/);
  });
});

describe('Discord (contract §11.3): the interactions function and its public key', () => {
  const KEY = 'ab'.repeat(32);
  const envOf = (r: Record<string, { Type: string; Properties: { Environment?: { Variables?: Record<string, string> } } }>, name: string) =>
    Object.entries(r).find(([id, x]) => x.Type === 'AWS::Lambda::Function' && id.startsWith(`${pascal(name)}Function`))?.[1].Properties
      .Environment?.Variables ?? {};

  it('without the setting the function has no key (it answers 404); with one, it alone has it; a malformed one stops the synth', () => {
    expect(envOf(resources, 'discordInteractions').DISCORD_PUBLIC_KEY).toBeUndefined();
    const { dir } = synth({}, { 'deck-library:discordPublicKey': KEY.toUpperCase(), ...TEMPLATE_ONLY }, false);
    const keyed = resourcesIn(dir);
    rmSync(dir, { recursive: true, force: true });
    expect(envOf(keyed, 'discordInteractions').DISCORD_PUBLIC_KEY).toBe(KEY);
    const others = routes.filter((r) => r.name !== 'discordInteractions' && r.path !== '$default');
    for (const route of others) expect(envOf(keyed, route.name).DISCORD_PUBLIC_KEY, route.name).toBeUndefined();
    expect(() => synth({}, { 'deck-library:discordPublicKey': 'not-a-key', ...TEMPLATE_ONLY }, false)).toThrow(/64 hex characters/);
  }, 300_000);
});
