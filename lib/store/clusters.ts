/**
 * The clusters the daily job made, and the archetypes' weeks (lib/rules/archetype-trend.ts), as one item
 * (items/clusters.ts): written whole by each run (a run's clusters are all there are), read in one GetItem. At a few
 * hundred bytes a cluster and some 60 an archetype's weeks, 1,000 clusters are well within DynamoDB's 400 KB an item.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { type Trend, trendRead } from '#rules/archetype-trend.ts';
import type { Cluster } from '#rules/clusters.ts';
import { documentClient } from './client.ts';
import { clustersKey } from './items/clusters.ts';
import { DECKS, tableName } from './tables.ts';

/** A cluster as kept: its name (as decks keep it), nation, anchors, signature and groups' decks. */
export type KeptCluster = Omit<Cluster, 'id'> & { name: string };

export async function writeClusters(clusters: ReadonlyMap<string, KeptCluster>, trend: Trend, at: Date): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(DECKS),
      Item: { ...clustersKey(), clusters: Object.fromEntries(clusters), trend, as_of: at.toISOString() },
    }),
  );
}

/** What the figures read of a kept cluster: one without it (a write of another shape) is left out, never a failure. */
const Named = v.looseObject({ name: v.string(), main: v.string(), core: v.array(v.string()), tech: v.array(v.string()) });

/** The clusters of the last run, by id, and the weeks kept (none before the first run). */
export async function readClusters(): Promise<{ clusters: Map<string, KeptCluster>; trend: Trend }> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(DECKS), Key: clustersKey() }));
  const kept = Item?.clusters;
  const clusters = typeof kept === 'object' && kept !== null ? Object.entries(kept as Record<string, unknown>) : [];
  return {
    clusters: new Map(clusters.filter(([, c]) => v.is(Named, c)) as [string, KeptCluster][]),
    trend: trendRead(Item?.trend),
  };
}
