/**
 * IAM statements from the route table's grants: each function may take only its route's DynamoDB
 * actions, on the named indexes (queries) or on items whose partition key has the granted prefix
 * (dynamodb:LeadingKeys), and nothing else.
 */
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Grant } from '#routes';

export function grantStatements(grants: readonly Grant[], tableArn: (table: Grant['table']) => string): PolicyStatement[] {
  return grants.map((g) =>
    g.indexes
      ? new PolicyStatement({
          effect: Effect.ALLOW,
          actions: g.actions.map((a) => `dynamodb:${a}`),
          resources: g.indexes.map((i) => `${tableArn(g.table)}/index/${i}`),
        })
      : new PolicyStatement({
          effect: Effect.ALLOW,
          actions: g.actions.map((a) => `dynamodb:${a}`),
          resources: [tableArn(g.table)],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': g.leadingKeys ?? [] } },
        }),
  );
}
