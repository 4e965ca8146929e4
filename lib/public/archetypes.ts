/**
 * GET /api/v1/archetypes — the archetypes the library plays (contract §13.3): the public decks of each archetype (a
 * counted figure the store-change worker keeps: rules/plays.ts COUNTED.archetypes), named and given their key cards by
 * the rules in use or the daily job's clusters. Two items read (the factions' figures and the clusters), whatever the
 * library's size.
 */
import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { endpoint } from '#http/types.ts';
import { PLAYS_ROUTES as R } from '#routes/plays.ts';
import { archetypeFigures } from '#rules/archetype-figures.ts';
import { documentClient } from '#store/client.ts';
import { readClusters } from '#store/clusters.ts';
import { readCounts } from '#store/plays.ts';
import { languageHeaders, languageOf } from './language.ts';

export const listArchetypes = endpoint(R.listArchetypes, { init: [catalogue, archetypeRules, documentClient] }, async (req) => {
  const language = languageOf(req);
  const [{ decks, as_of, counts }, clusters] = await Promise.all([readCounts(), readClusters()]);
  const rules = archetypeRules();
  return {
    data: archetypeFigures({ decks, counts: counts.archetypes, rules, clusters, language, main: req.query.main_faction }),
    meta: { decks, as_of, period: rules?.period ?? null },
    headers: languageHeaders(language, catalogue()),
  };
});
