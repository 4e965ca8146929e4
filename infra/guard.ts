/**
 * The Control Tower proactive controls (cfn-guard rules, @cdklabs/cdk-validator-cfnguard) this stack
 * does not meet on purpose, each acknowledged on the constructs it is about with its reason — the one
 * place those reasons are written (docs/operations.md lists them).
 */
import { basename, dirname } from 'node:path';
import { CfnGuardValidator, type CfnGuardValidatorProps } from '@cdklabs/cdk-validator-cfnguard';
import { type IPolicyValidationContextBeta1, type IPolicyValidationPluginBeta1, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { readStack } from './template.ts';

export const GUARD_EXCEPTIONS = {
  api_gw_v2_authorization_type_configured_check:
    'Public routes are public by the requirement; owner routes authenticate in their function (API keys hashed in DynamoDB, contract §5), which API Gateway authorizers cannot check.',
  lambda_function_public_access_prohibited_check:
    "A false positive: each route's permission has the principal apigateway.amazonaws.com and this API's ARN (joined with any stage and method and the route's path) as SourceArn, which the rule does not read as a local reference (it accepts only a plain string, Ref or GetAtt); countViews' one permission is CloudWatch Logs' for the access log group. The stack test checks every permission.",
  lambda_inside_vpc_check:
    'Scale to zero: a VPC would need NAT gateways or interface endpoints to reach DynamoDB and CloudWatch, billed by the hour whatever the traffic (about $7 to $32 a month each), beyond the whole idle budget.',
  cloudwatch_log_group_retention_period_check:
    'Logs are kept 30 days by cost: request and access logs past a month are of no use to on-call, and storage bills by the GB-month.',
  cloudwatch_log_group_encrypted_check:
    'CloudWatch Logs encrypts every log group at rest already; a customer-managed KMS key costs $1 a month, the whole idle budget, and the logs hold no customer secret (keys are hashed, bodies are not logged).',
  sqs_dlq_check:
    'This queue is itself where the workers record the stream batches they gave up on, and Lambda the view batches countViews failed: it needs no queue of its own.',
  cloudfront_origin_failover_enabled_check:
    'One origin: the HTTP API of this region, the only copy of the service (one table, one region); a second origin would be a second stack and a replicated table, billed whatever the traffic.',
  cloudfront_access_logs_enabled_check:
    "Every request that reaches the origin is in the API's access log; the edge's own standard logs need an S3 bucket (and its own access logs), billed by the GB, for answers that ran nothing of ours.",
  cloudfront_custom_ssl_certificate_check:
    "The default deploy has no domain of its own to certify: CloudFront's *.cloudfront.net certificate. A custom domain (domainNames, certificateArn) brings its ACM certificate and passes this rule.",
  cloudfront_sni_enabled_check:
    "SNI is a setting of a custom certificate: without a custom domain there is none (CloudFront's *.cloudfront.net certificate). A custom domain is served with SNI only and passes this rule.",
  cloudfront_security_policy_check:
    "The minimum TLS version is a setting of a custom certificate: CloudFront's *.cloudfront.net certificate cannot be given one (TLSv1). A custom domain gets TLSv1.2_2021 and passes this rule.",
  s3_bucket_default_encryption_kms_check:
    "The bulk files are public data (every public deck, contract §12.2), encrypted at rest with S3's own keys; a customer-managed KMS key costs $1 a month, the whole idle budget, and CloudFront's every read of a file would need it too.",
  s3_bucket_versioning_enabled_check:
    "A bulk file's key is written once and deleted by the lifecycle rule within 7 days: versions would keep an erased account's decks in noncurrent versions past the 7 days contract §12.2 allows.",
  s3_bucket_logging_enabled_check:
    'The bulk files are downloaded through the edge; server access logs need a second bucket (with its own rules), billed by the GB, for a bucket of derived public files no one writes but the export job.',
  s3_event_notifications_enabled_check: 'Nothing follows a new bulk file: the export job lists it itself once its upload is complete.',
  s3_bucket_object_lock_enabled_check:
    'Object lock would keep the lifecycle rule from deleting a bulk file within 7 days, which an erased account needs (contract §12.2).',
} as const;

export type GuardRule = keyof typeof GUARD_EXCEPTIONS;

/** Acknowledges a guard rule on a construct (and those under it), with its written reason. */
export const guardException = (scope: IConstruct, rule: GuardRule): void =>
  Validations.of(scope).acknowledge({ id: `cdk-validator-cfnguard::${rule}`, reason: GUARD_EXCEPTIONS[rule] });

/**
 * The Control Tower controls over every template a stack deploys. CDK hands a validation plugin the
 * templates of its cloud assembly's stacks (`assembly.stacks`, aws-cdk PR 23951) — not their nested
 * stacks', where the functions are (infra/stack.ts) — so this gives cfn-guard those too.
 */
export class EveryTemplateGuard implements IPolicyValidationPluginBeta1 {
  private readonly guard: CfnGuardValidator;
  readonly name: string;
  readonly version?: string;
  readonly ruleIds?: string[];

  constructor(props: CfnGuardValidatorProps = {}) {
    this.guard = new CfnGuardValidator(props);
    this.name = this.guard.name;
    this.version = this.guard.version;
    this.ruleIds = this.guard.ruleIds;
  }

  validate(context: IPolicyValidationContextBeta1) {
    const nested = context.templatePaths.flatMap((path) =>
      readStack(dirname(path), basename(path, '.template.json'))
        .files.slice(1)
        .map(({ file }) => `${dirname(path)}/${file}`),
    );
    return this.guard.validate({ ...context, templatePaths: [...context.templatePaths, ...nested] });
  }
}
