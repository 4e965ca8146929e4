/**
 * One Lambda function of the service — a route's, or a worker's (lib/workers/) — with the defaults
 * every function shares: ARM64, the newest Node.js runtime, an ESM bundle built by the local esbuild (no
 * Docker) with the AWS SDK inside, minified with source maps beside it (read by Node only when the
 * sourceMaps setting asks), a log group with a retention period, the catalogue file only where it is
 * needed — and its own role, which holds its log permission and its DynamoDB grants and nothing else
 * (the construct owns them, as Powertools' examples/app function construct does).
 *
 * Its code is an asset bundled as NodejsFunction bundles one (hashed by its output, bundled only for the stacks
 * CDK's `aws:cdk:bundling-stacks` names), from every function's bundles built at once for the synthesis
 * (infra/bundling.ts says why): the same files, the same asset hashes.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AssetHashType, type CfnElement, DockerImage, Duration, RemovalPolicy, Stack, Stage, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime, RuntimeFamily, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { compressed, ENCODINGS, type Encoding } from '#docs/encoding.ts';
import { FUNCTION_TIMEOUT_SECONDS, type Grant, type Grantee, grantsOf, type SubsetFont } from '#routes';
import { BULK_FOLDER } from '#rules/bulk.ts';
import { shippedFiles } from '#shipped';
import { BUNDLE, BUNDLE_FOLDER_PREFIX, bundleFolder, bundleHandlers, HANDLERS } from '../bundling.ts';
import { cutFonts } from '../cut-fonts.ts';
import { grantStatements } from '../grants.ts';
import { guardException } from '../guard.ts';
import { NODE_MAJOR } from '../node-version.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
/** Lambda's Node.js: the project's one Node major (node-version.ts). */
export const RUNTIME = new Runtime(`nodejs${NODE_MAJOR}.x`, RuntimeFamily.NODEJS, { supportsInlineCode: true });
/** esbuild's target: the same Node. */
export const BUNDLE_TARGET = BUNDLE.target;
/** Where a catalogue function finds its file in the deployed bundle. */
export const BUNDLED_CATALOGUE = 'catalogue.json';

/** What a function is: its name and grants, its handler module, and what ships beside it. */
export interface FunctionSpec extends Grantee {
  /** The handler module, relative to the project root; it exports `handler`. */
  handler: string;
  /** Files (project-relative) shipped beside its bundle. */
  files?: readonly string[];
  /** Fonts shipped beside it cut to the catalogue's characters (lib/routes/route.ts). */
  subsetFonts?: readonly SubsetFont[];
  /** Its memory (MB) where measured to need another than 512 (catalogue) or 256. */
  memory?: number;
  /** What it serves, for its description. */
  serves: string;
  /** Its timeout (s), where not FUNCTION_TIMEOUT_SECONDS. */
  timeoutSeconds?: number;
}

export interface ServiceFunctionProps {
  spec: FunctionSpec;
  /** The ARN of a table of the grants. */
  tableArn: (table: Grant['table']) => string;
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
  /** The bulk files' bucket and the origin its files link on, for a function that declares `objects` (lib/routes/route.ts). */
  bulk?: { bucketName: string; bucketArn: string; publicUrl?: string; arnInFindings: string };
}

export class ServiceFunction extends LambdaFunction {
  constructor(
    scope: Construct,
    id: string,
    { spec, tableArn, environment, catalogueFile, logRetention, tracing, sourceMaps, reservedConcurrency, bulk }: ServiceFunctionProps,
  ) {
    // Retained: a function removed or moved by an update (to another nested stack, say) leaves its logs to expire by
    // their retention, not deleted with it (docs/deploy.md; a teardown leaves them too: docs/operations.md).
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: logRetention, removalPolicy: RemovalPolicy.RETAIN });
    // What it ships beside its bundle (lib/shipped.ts), each script compressed too, in each encoding it may be sent in
    // (lib/docs/encoding.ts).
    const shipped = shippedFiles(spec.files);
    // Its bundle is one of every handler module's, built at once (functions/: a handler elsewhere would have none).
    if (!HANDLERS.includes(spec.handler))
      throw new Error(`${spec.name}: its handler ${spec.handler} is not a module of functions/, where every bundle is built from`);
    /** Its bundle, the catalogue, the files it ships and its fonts in `output`: done only for a stack that is bundled. */
    const bundle = (output: string): true => {
      const built = join(bundlesOf(Stage.of(scope)), bundleFolder(spec.handler));
      for (const file of ['index.mjs', 'index.mjs.map']) copyFileSync(join(built, file), join(output, file));
      if (spec.catalogue) copyFileSync(catalogueFile, join(output, BUNDLED_CATALOGUE));
      // Found beside the bundle through LAMBDA_TASK_ROOT (the docs page's scripts).
      for (const { from, to } of shipped) {
        const body = readFileSync(resolve(ROOT, from));
        mkdirSync(dirname(join(output, to)), { recursive: true });
        writeFileSync(join(output, to), body);
        if (to.endsWith('.js'))
          for (const encoding of Object.keys(ENCODINGS) as Encoding[])
            writeFileSync(join(output, `${to}${ENCODINGS[encoding]}`), compressed(body, encoding));
      }
      // Fonts cut to the catalogue's characters (a CJK face is 6–10 MB whole).
      cutFonts(catalogueFile, output, spec.subsetFonts);
      return true;
    };
    // Its own role: logs to its own group and its grants, nothing more.
    const role = new Role(scope, `${id.replace(/Function$/, '')}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Deck Library ${spec.name}`,
    });
    super(scope, id, {
      code: Code.fromAsset(ROOT, {
        // As NodejsFunction's: hashed by what is built (the project's folder is not read for a hash).
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Never run: the local bundling always builds, or throws. What goes into the bundle, named here, keys CDK's
          // cache of a synthesis's assets (which does not look into the function).
          image: DockerImage.fromRegistry('unused-local-bundling'),
          command: [
            spec.handler,
            `catalogue=${spec.catalogue ? catalogueFile : 'none'}`,
            ...shipped.map((f) => f.from),
            ...(spec.subsetFonts ?? []).map((f) => `${f.file}=${f.languages.join(',')} cut to ${catalogueFile}`),
          ],
          local: { tryBundle: bundle },
        },
      }),
      handler: 'index.handler',
      role,
      runtime: RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: spec.memory ?? (spec.catalogue ? 512 : 256),
      timeout: Duration.seconds(spec.timeoutSeconds ?? FUNCTION_TIMEOUT_SECONDS),
      tracing: tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      ...(reservedConcurrency === undefined ? {} : { reservedConcurrentExecutions: reservedConcurrency }),
      logGroup,
      description: `Deck Library: ${spec.serves}`,
      environment: {
        ...(sourceMaps ? { NODE_OPTIONS: '--enable-source-maps' } : {}),
        POWERTOOLS_SERVICE_NAME: 'deck-library',
        // The SDK's endpoints are its defaults for the region: no looking for configured URLs in ~/.aws files.
        AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true',
        ...environment,
        ...(spec.objects && bulk ? { BULK_BUCKET: bulk.bucketName, ...(bulk.publicUrl ? { PUBLIC_URL: bulk.publicUrl } : {}) } : {}),
        // The catalogue it ships, and the newest published one once there is one (lib/catalogue/load.ts).
        ...(spec.catalogue ? { CATALOGUE_FILE: `/var/task/${BUNDLED_CATALOGUE}`, CATALOGUE_PUBLISHED: 'on' } : {}),
      },
    });
    role.addToPolicy(
      new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [`${logGroup.logGroupArn}:*`] }),
    );
    const logGroupId = Stack.of(this).getLogicalId(logGroup.node.defaultChild as CfnElement);
    Validations.of(role).acknowledge({
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${logGroupId}.Arn>:*]`,
      reason: "Log stream names are made at run time: the only wildcard is the streams of the function's own log group.",
    });
    if (tracing) {
      Validations.of(role).acknowledge({
        id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
        reason: "Active tracing: X-Ray's PutTraceSegments and PutTelemetryRecords take no resource, so their only resource is *.",
      });
    }
    for (const statement of grantStatements(grantsOf(spec), tableArn)) role.addToPolicy(statement);
    if (spec.objects) {
      if (!bulk) throw new Error(`${spec.name} declares objects but is given no bucket`);
      // Its files' folder only: a multipart upload's every call is s3:PutObject's (S3 User Guide, "Multipart upload API
      // and permissions"), and an abandoned one's parts are its own to abort; a presigned link is its signer's GetObject.
      const actions = spec.objects === 'write' ? ['s3:PutObject', 's3:AbortMultipartUpload'] : ['s3:GetObject'];
      role.addToPolicy(new PolicyStatement({ actions, resources: [`${bulk.bucketArn}/${BULK_FOLDER}/*`] }));
      Validations.of(role).acknowledge({
        id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${bulk.arnInFindings}>/${BULK_FOLDER}/*]`,
        reason: "The bulk files' keys carry their time (lib/rules/bulk.ts): the only wildcard is the files' own folder.",
      });
    }
    guardException(this, 'lambda_inside_vpc_check');
    guardException(logGroup, 'cloudwatch_log_group_retention_period_check');
    guardException(logGroup, 'cloudwatch_log_group_encrypted_check');
  }
}

/**
 * Each synthesis's bundles: every handler module's (infra/bundling.ts), built in its output folder (made absolute: the
 * CDK CLI gives a relative one, and esbuild would resolve it from the project's folder, not this process's) when its
 * first function is bundled — the bundles an earlier synthesis left there removed first, so that none is copied stale.
 */
const BUILT = new WeakSet<Stage>();
function bundlesOf(stage: Stage | undefined): string {
  if (!stage) throw new Error('a service function is bundled within a stage (an App)');
  const outdir = resolve(stage.outdir);
  if (!BUILT.has(stage)) {
    if (existsSync(outdir))
      for (const folder of readdirSync(outdir))
        if (folder.startsWith(BUNDLE_FOLDER_PREFIX)) rmSync(join(outdir, folder), { recursive: true });
    bundleHandlers(HANDLERS, outdir);
    BUILT.add(stage);
  }
  return outdir;
}
