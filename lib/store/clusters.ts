/**
 * The clusters the daily job made, as one item (items/clusters.ts): written whole by each run (a run's clusters are
 * all there are), read in one GetItem. At a few hundred bytes a cluster, 1,000 clusters are well within DynamoDB's
 * 400 KB an item.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Cluster } from '#rules/clusters.ts';
import { documentClient } from './client.ts';
import { clustersKey } from './items/clusters.ts';
import { DECKS, tableName } from './tables.ts';

/** A cluster as kept: its name (as decks keep it), nation, anchors, signature and groups' decks. */
export type KeptCluster = Omit<Cluster, 'id'> & { name: string };

export async function writeClusters(clusters: ReadonlyMap<string, KeptCluster>, at: Date): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(DECKS),
      Item: { ...clustersKey(), clusters: Object.fromEntries(clusters), as_of: at.toISOString() },
    }),
  );
}

/** The clusters of the last run, by id (none before the first). */
export async function readClusters(): Promise<Map<string, KeptCluster>> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(DECKS), Key: clustersKey() }));
  return new Map(Object.entries((Item?.clusters as Record<string, KeptCluster> | undefined) ?? {}));
}
