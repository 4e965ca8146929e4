/**
 * GET /api/v1/archetypes and /api/v1/archetypes/{archetype_id} — the archetypes the library plays (contract §13.3): the
 * public decks of each archetype (a counted figure the store-change worker keeps: rules/plays.ts COUNTED.archetypes),
 * named and given their key cards by the rules in use or the daily job's clusters, their trend by the weeks the job
 * keeps (rules/archetype-trend.ts) — two items read, whatever the library's size — and each shown archetype's
 * SAMPLE_DECKS most viewed public decks, read as asked (one Query of SAMPLE_DECKS entries an archetype shown): a deck
 * made private is in no sample.
 */
import { archetypeIn, archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { afterCursor, cursorAfter, cursorKeyAtInit, queryDigest } from '#http/cursor.ts';
import { ApiError } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { NO_SUCH_ARCHETYPE } from '#routes/params.ts';
import { PLAYS_ROUTES as R } from '#routes/plays.ts';
import { archetypeFigures, SAMPLE_DECKS } from '#rules/archetype-figures.ts';
import { withWeek } from '#rules/archetype-trend.ts';
import { facetOf } from '#rules/search-filters.ts';
import { searchItem } from '#shapes/deck-bodies.ts';
import { documentClient } from '#store/client.ts';
import { readClusters } from '#store/clusters.ts';
import { readCounts } from '#store/plays.ts';
import { mostViewed } from '#store/search-query.ts';
import { languageHeaders, languageOf } from './language.ts';

/** The figures of every archetype (of a main nation), in the language asked; 404 for a period the rules in use are not of. */
async function figuresAsked(language: string, period: string | undefined, main?: string) {
  const rules = archetypeRules();
  const inUse = rules?.period ?? null;
  if (period !== undefined && period !== inUse) {
    throw new ApiError(
      404,
      'not_found',
      `no figures of period ${period}: they are of the rules in use, ${inUse ? `period ${inUse}` : 'none'}`,
    );
  }
  const [{ decks, as_of, counts }, kept] = await Promise.all([readCounts(), readClusters()]);
  const trend = withWeek(kept.trend, new Date(), decks, counts.archetypes);
  const figures = archetypeFigures({ decks, counts: counts.archetypes, rules, clusters: kept.clusters, trend, language, main });
  return { figures, meta: { decks, as_of, period: inUse } };
}

/** A figure with its sample decks, read now (their archetype named in the language asked, as the figure is). */
const withSamples = async <F extends { id: string }>(figure: F, language: string) => ({
  ...figure,
  samples: (await mostViewed(facetOf('archetype', figure.id), SAMPLE_DECKS)).map((e) => {
    const item = searchItem(e);
    return { ...item, archetype: archetypeIn(item.archetype, language) };
  }),
});

/**
 * The list, a page at a time after the last archetype shown (its decks and id, the order's key): a page reads the
 * figures as they are then, so an archetype shown is not shown again unless its decks fell past that key meanwhile.
 */
export const listArchetypes = endpoint(
  R.listArchetypes,
  { init: [catalogue, archetypeRules, documentClient, cursorKeyAtInit] },
  async (req) => {
    const { main_faction: main, period, limit } = req.query;
    const language = languageOf(req);
    const digest = queryDigest(['archetypes', main, period, String(limit), language]);
    const after = req.query.cursor === undefined ? undefined : await cursorAfter(req.query.cursor, digest);
    const { figures, meta } = await figuresAsked(language, period, main);
    const from = after ? figures.findIndex((f) => f.decks < after[0] || (f.decks === after[0] && f.id > after[1])) : 0;
    const page = from < 0 ? [] : figures.slice(from, from + limit);
    const last = page.at(-1);
    const more = from >= 0 && from + limit < figures.length && last !== undefined;
    return {
      data: await Promise.all(page.map((f) => withSamples(f, language))),
      meta: { ...meta, has_more: more, next_cursor: more ? await afterCursor(digest, [last.decks, last.id]) : null },
      headers: languageHeaders(language, catalogue()),
    };
  },
);

export const readArchetype = endpoint(R.readArchetype, { init: [catalogue, archetypeRules, documentClient] }, async (req) => {
  const language = languageOf(req);
  const { figures, meta } = await figuresAsked(language, req.query.period);
  const figure = figures.find((f) => f.id === req.params.archetype_id);
  if (!figure) throw new ApiError(404, NO_SUCH_ARCHETYPE.code, NO_SUCH_ARCHETYPE.message);
  return { data: await withSamples(figure, language), meta, headers: languageHeaders(language, catalogue()) };
});
