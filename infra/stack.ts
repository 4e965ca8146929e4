/**
 * The Deck Library stack: an HTTP API (payload v2) with one route and one function per entry of the
 * route table, the tables of the shared definition, and each function's own least-privilege role.
 */
import { type CfnElement, CfnOutput, Duration, Names, NestedStack, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { type CfnStage, CorsHttpMethod, HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { FilterPattern, LogGroup, type RetentionDays, SubscriptionFilter } from 'aws-cdk-lib/aws-logs';
import { LambdaDestination } from 'aws-cdk-lib/aws-logs-destinations';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { CORS, methodsOf, ROUTE_GROUPS, ROUTES, type Route, routeByName, routeKey, throttleClass } from '#routes';
import { DISCORD_ROUTES } from '#routes/discord.ts';
import {
  DAILY_WORKERS,
  DAY_OPENER,
  subscriptionPattern,
  VIEW_SUBSCRIPTION,
  WEBHOOK_DELIVERIES,
  WORKERS,
  type Worker,
} from '#routes/workers.ts';
import { BULK_FOLDER, BULK_KEPT_DAYS } from '#rules/bulk.ts';
import { ACCOUNTS, DECKS } from '#store/tables.ts';
import { ACCESS_LOG_FIELDS } from './access-log-fields.ts';
import { Edge } from './constructs/edge.ts';
import { FunctionIntegration } from './constructs/function-integration.ts';
import { Monitoring } from './constructs/monitoring.ts';
import { ServiceFunction } from './constructs/service-function.ts';
import { tableFrom } from './constructs/tables.ts';
import { GUARD_EXCEPTIONS, guardException } from './guard.ts';
import type { OpsSettings } from './settings.ts';

export interface DeckLibraryProps extends StackProps {
  /** The catalogue file shipped with the functions that need one (contract §7). */
  catalogueFile: string;
  logRetention: RetentionDays;
  /** Throttles, concurrency, tracing and alarms (settings.ts, from context). */
  settings: OpsSettings;
}

/** A route's or worker's name as its constructs' ids begin (`readCode` → `ReadCode`: `ReadCodeFunction`). */
export const pascal = (name: string) => `${name[0]?.toUpperCase()}${name.slice(1)}`;

export class DeckLibraryStack extends Stack {
  readonly functions = new Map<string, ServiceFunction>();
  readonly workers = new Map<string, ServiceFunction>();
  /** The function the access log's subscription feeds (views). */
  readonly countViews: ServiceFunction;
  /** The function that opens the day's slots of the views' week at midnight, UTC. */
  readonly openViewDay: ServiceFunction;
  readonly discardedChanges: Queue;
  readonly monitoring: Monitoring;
  /** The CloudFront distribution in front of the API (none with `edge=false`). */
  readonly edge?: Edge;

  constructor(scope: Construct, id: string, props: DeckLibraryProps) {
    super(scope, id, props);
    const decks = tableFrom(this, DECKS);
    const accounts = tableFrom(this, ACCOUNTS);
    const tableArn = (t: 'decks' | 'accounts') => (t === 'decks' ? decks.tableArn : accounts.tableArn);

    // The bulk files (contract §12.2): private (the edge reads it by origin access control), encrypted, TLS only; a
    // file deleted BULK_KEPT_DAYS after it is written, an upload left unfinished after a day. Kept at a destroy, as the
    // tables are (a bucket with files cannot be deleted by CloudFormation; an empty one may be, by hand).
    const bulkBucket = new Bucket(this, 'BulkData', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [
        {
          id: 'BulkFilesKept',
          prefix: `${BULK_FOLDER}/`,
          expiration: Duration.days(BULK_KEPT_DAYS),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const rule of [
      's3_bucket_default_encryption_kms_check',
      's3_bucket_versioning_enabled_check',
      's3_bucket_logging_enabled_check',
      's3_event_notifications_enabled_check',
      's3_bucket_object_lock_enabled_check',
    ] as const)
      guardException(bulkBucket, rule);
    Validations.of(bulkBucket).acknowledge({
      id: 'AwsSolutions::AwsSolutions-S1',
      reason: GUARD_EXCEPTIONS.s3_bucket_logging_enabled_check,
    });
    const shared = {
      tableArn,
      bulk: {
        bucketName: bulkBucket.bucketName,
        bucketArn: bulkBucket.bucketArn,
        // How cdk-nag names the bucket's ARN in a nested stack (the parameter CDK passes it by).
        arnInFindings: `referenceto${Names.nodeUniqueId((bulkBucket.node.defaultChild as CfnElement).node)}Arn`,
      },
      catalogueFile: props.catalogueFile,
      logRetention: props.logRetention,
      tracing: props.settings.tracing,
      sourceMaps: props.settings.sourceMaps,
      reservedConcurrency: props.settings.reservedConcurrency,
    };
    const tableNames = { DECKS_TABLE: decks.tableName, ACCOUNTS_TABLE: accounts.tableName };
    // The functions (each with its role, policy, log group and invoke permissions: about five resources) in nested
    // stacks — one a route group, one for the workers — so that no stack nears CloudFormation's 500 resources
    // (contract §12.4); the API's routes and integrations, the tables and the rest stay in this one.
    const routeAreas = Object.entries(ROUTE_GROUPS).flatMap(([group, inGroup]) => {
      const area = new NestedStack(this, `${pascal(group)}Routes`, { description: `Deck Library: the ${group} routes' functions` });
      return (inGroup as readonly Route[]).map((route) => [route, area] as const);
    });
    const workerArea = new NestedStack(this, 'Workers', { description: "Deck Library: the workers' functions" });
    // The webhook deliveries' queue (contract §13.5; lib/webhooks/queue.ts): the functions that declare `deliveries` send
    // to it; its worker takes its messages. A message whose handling keeps failing (the store, not a target: a target's
    // failure is a retry the worker schedules itself) goes to the queue of discarded work after 5 receives (alarmed).
    const discarded = new Queue(this, 'DiscardedChanges', {
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
    });
    Validations.of(discarded).acknowledge({ id: 'AwsSolutions::AwsSolutions-SQS3', reason: GUARD_EXCEPTIONS.sqs_dlq_check });
    guardException(discarded, 'sqs_dlq_check');
    const deliveriesQueue = new Queue(this, 'WebhookDeliveries', {
      enforceSSL: true,
      encryption: QueueEncryption.SQS_MANAGED,
      // SQS's advice for a Lambda event source: at least six times the function's timeout.
      visibilityTimeout: Duration.seconds(6 * WEBHOOK_DELIVERIES.timeoutSeconds),
      deadLetterQueue: { queue: discarded, maxReceiveCount: 5 },
    });
    /** What a function that sends deliveries needs: the queue's URL, and its send permission. */
    const sendsDeliveries = (fn: ServiceFunction, spec: { deliveries?: true }) => {
      if (!spec.deliveries) return;
      fn.addEnvironment('DELIVERIES_QUEUE_URL', deliveriesQueue.queueUrl);
      deliveriesQueue.grantSendMessages(fn);
    };
    for (const [route, area] of routeAreas) {
      const fn = new ServiceFunction(area, `${pascal(route.name)}Function`, {
        ...shared,
        // A capped route's function has its own reservation: the most a flood of it can take or cost.
        ...(route.capped ? { reservedConcurrency: props.settings.cappedConcurrency ?? props.settings.reservedConcurrency } : {}),
        spec: { ...route, serves: `${route.method} ${route.path}` },
        // The interactions endpoint checks Discord's signatures with the application's public key (none: it answers 404).
        environment: {
          ...tableNames,
          ...(route.name === DISCORD_ROUTES.discordInteractions.name && props.settings.discordPublicKey
            ? { DISCORD_PUBLIC_KEY: props.settings.discordPublicKey }
            : {}),
        },
      });
      sendsDeliveries(fn, route);
      this.functions.set(route.name, fn);
    }

    // The workers: each on its table's change stream, retried from its first unfinished record until it
    // succeeds, a record that keeps failing at most its worker's record age and retries, then recorded in the
    // queue of discarded records (and work that fails for good, at once, by the worker itself).
    for (const worker of WORKERS as readonly Worker[]) {
      const fn = new ServiceFunction(workerArea, `${pascal(worker.name)}Function`, {
        ...shared,
        spec: { ...worker, serves: `changes of the ${worker.table} table` },
        // Work that fails for good is named in the discarded-changes queue, and the batch goes on (lib/workers/discard.ts).
        environment: { ...tableNames, DISCARDED_QUEUE_URL: discarded.queueUrl },
      });
      discarded.grantSendMessages(fn);
      sendsDeliveries(fn, worker);
      fn.addEventSource(
        new DynamoEventSource(worker.table === 'decks' ? decks : accounts, {
          startingPosition: StartingPosition.TRIM_HORIZON,
          batchSize: worker.batchSize,
          ...(worker.batchingWindowSeconds ? { maxBatchingWindow: Duration.seconds(worker.batchingWindowSeconds) } : {}),
          filters: worker.filters.map((pattern) => FilterCriteria.filter(pattern as Record<string, unknown>)),
          reportBatchItemFailures: true,
          bisectBatchOnError: false,
          maxRecordAge: Duration.seconds(worker.maxRecordAgeSeconds),
          retryAttempts: worker.maxRetries,
          ...(worker.parallelization ? { parallelizationFactor: worker.parallelization } : {}),
          onFailure: new SqsDlq(discarded),
        }),
      );
      this.workers.set(worker.name, fn);
    }
    // The deliveries' worker: up to 100 messages a batch, two invocations at most (lib/routes/workers.ts WEBHOOK_DELIVERIES).
    const deliverWebhooks = new ServiceFunction(workerArea, `${pascal(WEBHOOK_DELIVERIES.name)}Function`, {
      ...shared,
      spec: WEBHOOK_DELIVERIES,
      environment: tableNames,
    });
    sendsDeliveries(deliverWebhooks, WEBHOOK_DELIVERIES);
    deliverWebhooks.addEventSource(
      new SqsEventSource(deliveriesQueue, {
        batchSize: WEBHOOK_DELIVERIES.batchSize,
        maxBatchingWindow: Duration.seconds(WEBHOOK_DELIVERIES.batchingWindowSeconds),
        maxConcurrency: WEBHOOK_DELIVERIES.maxConcurrency,
        reportBatchItemFailures: true,
      }),
    );
    this.workers.set(WEBHOOK_DELIVERIES.name, deliverWebhooks);
    this.discardedChanges = discarded;
    // Each route's integration, its function allowed once for its path (constructs/function-integration.ts).
    const integrationOf = (route: Route) =>
      new FunctionIntegration(`${pascal(route.name)}Integration`, this.functions.get(route.name) as ServiceFunction);
    // What an asynchronously invoked function (countViews, the daily opener) gets on failure: Lambda's two
    // retries within 6 hours, then the event in the queue of discarded work (alarmed).
    const asyncRetries = { retryAttempts: 2, maxEventAge: Duration.hours(6), onFailure: new SqsDestination(discarded) };

    const api = new HttpApi(this, 'Api', {
      apiName: 'deck-library',
      description: 'Deck Library API',
      createDefaultStage: false,
      // What no route matches gets the contract's 404 envelope from the not-found function.
      defaultIntegration: integrationOf(routeByName('notFound')),
      // API Gateway answers preflights itself; the local runtime answers them from the same definition.
      corsPreflight: {
        allowOrigins: [...CORS.allowOrigins],
        allowMethods: CORS.allowMethods.map((m) => CorsHttpMethod[m]),
        allowHeaders: [...CORS.allowHeaders],
        exposeHeaders: [...CORS.exposeHeaders],
        maxAge: Duration.seconds(CORS.maxAgeSeconds),
      },
    });
    const apiRoutes = (ROUTES as readonly Route[])
      .filter((route) => route.path !== '$default')
      .flatMap((route) =>
        api.addRoutes({
          path: route.path,
          methods: methodsOf(route).map((m) => HttpMethod[m]),
          integration: integrationOf(route),
        }),
      );
    if (props.settings.edge) {
      this.edge = new Edge(this, 'Edge', {
        api,
        routes: ROUTES as readonly Route[],
        root: routeByName('docsPage').path,
        catalogueFile: props.catalogueFile,
        files: bulkBucket,
        ...(props.settings.domain ? { domain: props.settings.domain } : {}),
      });
      new CfnOutput(this, 'EdgeUrl', {
        value: `https://${this.edge.distribution.distributionDomainName}`,
        description: 'Base URL of the API through the edge (CloudFront): what to publish',
      });
    }
    // Where the bulk files link decks: the edge's domain, else the API's.
    const publicUrl = props.settings.domain
      ? `https://${props.settings.domain.names[0]}`
      : this.edge
        ? `https://${this.edge.distribution.distributionDomainName}`
        : api.apiEndpoint;
    // Deliveries link decks on it too (lib/webhooks/fan-out.ts, discord.ts).
    for (const fn of [this.workers.get('storeChanges'), deliverWebhooks]) fn?.addEnvironment('PUBLIC_URL', publicUrl);
    new CfnOutput(this, 'BulkBucketName', { value: bulkBucket.bucketName, description: 'BULK_BUCKET for deckctl bulk export --aws' });
    // Removed with the stack, as the functions' logs are (cdk destroy keeps only the tables).
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.logRetention, removalPolicy: RemovalPolicy.RETAIN });
    // Views are counted from the access log (contract §9.5): its lines of shared reads answered 200 reach
    // the countViews function through a subscription filter, in batches, invoked asynchronously: Lambda
    // retries a failed batch twice within 6 hours (the batch's marker makes a retry count nothing twice),
    // then records it in the queue of discarded work (alarmed).
    const countViews = new ServiceFunction(workerArea, 'CountViewsFunction', {
      ...shared,
      spec: { ...VIEW_SUBSCRIPTION, serves: 'the views in the access log' },
      environment: tableNames,
    });
    countViews.configureAsyncInvoke(asyncRetries);
    new SubscriptionFilter(this, 'ViewsSubscription', {
      logGroup: accessLogs,
      destination: new LambdaDestination(countViews),
      filterPattern: FilterPattern.literal(subscriptionPattern(VIEW_SUBSCRIPTION)),
    });
    this.countViews = countViews;
    // The daily functions: views of the week (contract §10.3), a schedule opening the new day's slots at
    // midnight, UTC, so that a day leaves the week with no view; the catalogue's refresh (§11.5). EventBridge
    // invokes each asynchronously: Lambda retries a failure twice, then records the event in the queue of
    // discarded work (alarmed); a retry writes nothing twice.
    const daily = Object.fromEntries(
      DAILY_WORKERS.map((worker) => {
        const fn = new ServiceFunction(workerArea, `${pascal(worker.name)}Function`, {
          ...shared,
          bulk: { ...shared.bulk, publicUrl },
          spec: worker,
          environment: tableNames,
        });
        fn.configureAsyncInvoke(asyncRetries);
        new Rule(this, `${pascal(worker.name)}Schedule`, {
          schedule: Schedule.cron({ minute: String(worker.at.minute), hour: String(worker.at.hour) }),
          targets: [new LambdaFunction(fn)],
        });
        return [worker.name, fn];
      }),
    );
    const openViewDay = daily[DAY_OPENER.name] as ServiceFunction;
    this.openViewDay = openViewDay;
    const { read, write, capped } = props.settings.throttle;
    const stage = new HttpStage(this, 'Stage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      // The stage's default: what a route without its own setting (the not-found catch-all) gets.
      throttle: read,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    // Per-route throttles from the route table: capped routes by theirs, reads and writes (stricter) by the route's method. The L1
    // property is JSON written as is, so its keys are CloudFormation's. API Gateway refuses settings for a
    // route that does not exist yet ("Unable to find Route by key"), and nothing else orders the stage
    // after the routes: it depends on every route it configures, so a first deploy creates them first.
    for (const apiRoute of apiRoutes) stage.node.addDependency(apiRoute);
    (stage.node.defaultChild as CfnStage).routeSettings = Object.fromEntries(
      (ROUTES as readonly Route[])
        .filter((r) => r.path !== '$default')
        .flatMap((r) => {
          const limits = { read, write, capped }[throttleClass(r)];
          return methodsOf(r).map((m) => [
            routeKey(r, m),
            { ThrottlingRateLimit: limits.rateLimit, ThrottlingBurstLimit: limits.burstLimit },
          ]);
        }),
    );
    this.monitoring = new Monitoring(this, 'Monitoring', {
      api,
      functions: this.functions,
      workers: this.workers,
      discardedChanges: discarded,
      tables: [decks, accounts],
      settings: props.settings,
    });
    guardException(api, 'api_gw_v2_authorization_type_configured_check');
    guardException(accessLogs, 'cloudwatch_log_group_retention_period_check');
    guardException(accessLogs, 'cloudwatch_log_group_encrypted_check');
    Validations.of(api).acknowledge({
      id: 'AwsSolutions::AwsSolutions-APIG4',
      reason:
        'Owner routes authenticate in the function (API keys hashed in DynamoDB, contract §5); public routes are public by the requirement.',
    });

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint, description: 'Base URL of the API' });
    new CfnOutput(this, 'DecksTableName', { value: decks.tableName, description: 'DECKS_TABLE for deckctl --aws' });
    new CfnOutput(this, 'AccountsTableName', { value: accounts.tableName, description: 'ACCOUNTS_TABLE for deckctl --aws' });
  }
}
