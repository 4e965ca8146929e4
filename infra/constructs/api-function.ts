/**
 * One API route's Lambda function, with the defaults every function shares: ARM64, the newest Node.js
 * runtime, an ESM bundle built by the local esbuild (no Docker) with the AWS SDK inside, minified with
 * source maps beside it (read by Node only when the sourceMaps setting asks), a log group with a
 * retention period — and the catalogue file only where it is needed.
 */
import { basename, resolve } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, RuntimeFamily, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { Route } from '#routes';
import { ALIAS_ARGS, BUNDLE } from '../bundling.ts';
import { NODE_MAJOR } from '../node-version.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
/** Lambda's Node.js: the project's one Node major (node-version.ts). */
export const RUNTIME = new Runtime(`nodejs${NODE_MAJOR}.x`, RuntimeFamily.NODEJS, { supportsInlineCode: true });
/** esbuild's target: the same Node. */
export const BUNDLE_TARGET = BUNDLE.target;
/** Where a catalogue function finds its file in the deployed bundle. */
export const BUNDLED_CATALOGUE = 'catalogue.json';

export interface ApiFunctionProps {
  route: Route;
  role: IRole;
  environment: Record<string, string>;
  /** The catalogue file to ship with the function when its route needs one. */
  catalogueFile: string;
  logRetention: RetentionDays;
  /** Lambda active tracing (X-Ray). */
  tracing?: boolean;
  /** Source-mapped stack traces (NODE_OPTIONS=--enable-source-maps): a cost at every cold start (settings.ts). */
  sourceMaps?: boolean;
  /** A concurrency reservation: a spend ceiling (and a floor taken from the account's pool). */
  reservedConcurrency?: number;
}

export class ApiFunction extends NodejsFunction {
  constructor(
    scope: Construct,
    id: string,
    { route, role, environment, catalogueFile, logRetention, tracing, sourceMaps, reservedConcurrency }: ApiFunctionProps,
  ) {
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: logRetention, removalPolicy: RemovalPolicy.DESTROY });
    super(scope, id, {
      entry: resolve(ROOT, route.entry),
      depsLockFilePath: resolve(ROOT, 'package-lock.json'),
      projectRoot: ROOT,
      handler: 'handler',
      role,
      runtime: RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: route.catalogue ? 512 : 256,
      timeout: Duration.seconds(10),
      tracing: tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      ...(reservedConcurrency === undefined ? {} : { reservedConcurrentExecutions: reservedConcurrency }),
      logGroup,
      description: `Deck Library: ${route.method} ${route.path}`,
      environment: {
        ...(sourceMaps ? { NODE_OPTIONS: '--enable-source-maps' } : {}),
        POWERTOOLS_SERVICE_NAME: 'deck-library',
        // The SDK's endpoints are its defaults for the region: no looking for configured URLs in ~/.aws files.
        AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true',
        ...environment,
        ...(route.catalogue ? { CATALOGUE_FILE: `/var/task/${BUNDLED_CATALOGUE}` } : {}),
      },
      bundling: {
        // infra/bundling.ts: the same settings the benchmark builds with.
        format: OutputFormat.ESM,
        target: BUNDLE.target,
        mainFields: [...BUNDLE.mainFields],
        minify: BUNDLE.minify,
        sourceMap: BUNDLE.sourcemap,
        sourcesContent: BUNDLE.sourcesContent,
        // Bundle the AWS SDK too: the function runs the versions it was tested with.
        externalModules: [],
        banner: BUNDLE.banner,
        esbuildArgs: ALIAS_ARGS,
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (_input: string, output: string) => [
            ...(route.catalogue ? [`cp "${catalogueFile}" "${resolve(output, BUNDLED_CATALOGUE)}"`] : []),
            // Files the route ships beside its bundle (the docs page's script), found there through LAMBDA_TASK_ROOT.
            ...(route.files ?? []).map((file) => `cp "${resolve(ROOT, file)}" "${resolve(output, basename(file))}"`),
          ],
        },
      },
    });
  }
}
