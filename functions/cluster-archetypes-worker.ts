import { clusterArchetypesDaily } from '#workers/clusters.ts';

export const handler = clusterArchetypesDaily;
