/** DynamoDB tables from the shared definitions of lib/store/tables.ts. */
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import type { IndexDef, KeyAttr, TableDef } from '#store/tables.ts';

const attr = (k: KeyAttr) => ({ name: k.name, type: k.type === 'S' ? AttributeType.STRING : AttributeType.NUMBER });
const projection = (i: IndexDef) =>
  i.projection.type === 'INCLUDE'
    ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: i.projection.attributes }
    : { projectionType: i.projection.type === 'ALL' ? ProjectionType.ALL : ProjectionType.KEYS_ONLY };

/** On demand, point-in-time recovery, deletion protection, retained on stack deletion, encrypted. */
export function tableFrom(scope: Construct, def: TableDef): TableV2 {
  return new TableV2(scope, `${def.id[0]?.toUpperCase()}${def.id.slice(1)}Table`, {
    partitionKey: attr(def.partitionKey),
    sortKey: attr(def.sortKey),
    billing: Billing.onDemand(),
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
    encryption: TableEncryptionV2.awsManagedKey(),
    ...(def.timeToLiveAttribute ? { timeToLiveAttribute: def.timeToLiveAttribute } : {}),
    ...(def.stream ? { dynamoStream: StreamViewType[def.stream] } : {}),
    globalSecondaryIndexes: def.globalIndexes.map((i) => ({
      indexName: i.indexName,
      partitionKey: attr(i.partitionKey),
      sortKey: i.sortKey && attr(i.sortKey),
      ...projection(i),
    })),
    localSecondaryIndexes: def.localIndexes.map((i) => ({
      indexName: i.indexName,
      sortKey: attr(i.sortKey as KeyAttr),
      ...projection(i),
    })),
  });
}
