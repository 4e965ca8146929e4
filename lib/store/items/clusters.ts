/**
 * The clusters the daily job made (contract §13.3; lib/workers/clusters.ts) and the archetypes' weeks: one item, written
 * whole by each run, read by the archetypes' figures (lib/public/archetypes.ts) for a cluster's name, nation and
 * signature, and each archetype's trend (lib/rules/archetype-trend.ts).
 *   pk CLUSTERS#all  sk ALL  { clusters: { <id>: { name, main, anchors, core, tech, decks } },
 *                             trend: { weeks: [<monday>], decks: [n], counts: { <archetype id>: [n] } }, as_of }
 * Its repository is lib/store/clusters.ts.
 */
import { itemKind } from './kind.ts';

export const CLUSTERS = itemKind('CLUSTERS#');
export const clustersKey = () => ({ pk: CLUSTERS.pk('all'), sk: 'ALL' });
