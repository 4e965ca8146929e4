/**
 * The clusters the daily job made (contract §13.3; lib/workers/clusters.ts): one item, written whole by each run, read
 * by the archetypes' figures (lib/public/archetypes.ts) for a cluster's name, nation and signature.
 *   pk CLUSTERS#all  sk ALL  { clusters: { <id>: { name, main, anchors, core, tech, decks } }, as_of }
 * Its repository is lib/store/clusters.ts.
 */
import { itemKind } from './kind.ts';

export const CLUSTERS = itemKind('CLUSTERS#');
export const clustersKey = () => ({ pk: CLUSTERS.pk('all'), sk: 'ALL' });
