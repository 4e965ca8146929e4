/**
 * What the library plays (contract §10.3): the cards a faction's public decks play, and the main/ally
 * pairs and tags of all public decks — figures the store-change worker keeps from the decks table's
 * changes (lib/store/plays.ts). No key; each a bounded read at any library size.
 */
import { SAMPLE_DECKS } from '#rules/archetype-figures.ts';
import { TREND_WEEKS } from '#rules/archetype-trend.ts';
import { ArchetypeQuery, ArchetypesQuery, PlayedCardsQuery } from '#shapes/queries.ts';
import { CLUSTERS } from '#store/items/clusters.ts';
import { PLAYS, TAGS_INDEX } from '#store/items/plays.ts';
import { LIFETIMES } from './cache-lifetimes.ts';
import { ArchetypeId } from './params.ts';
import { type Declared, decks, query, routes } from './route.ts';

/** What an archetype's figures are, for the document. */
const ARCHETYPE_FIGURE = `its decks and their share of all public decks (4 decimals); its name in the language asked (a rule's where it has one; a cluster's in English); its key cards (a rule's: the cards it holds and those of its sets; a cluster's: its core, in 80% of its decks, and its tech, in 30%); its trend (its share in each of the last ${TREND_WEEKS} weeks, the week in progress now); and its ${SAMPLE_DECKS} most viewed public decks as search lists them`;

/** The figures' two items (lib/store/plays.ts, lib/store/clusters.ts) and the samples' Query (lib/store/search-query.ts mostViewed). */
const ARCHETYPE_GRANTS = [decks(['GetItem'], [PLAYS.grant, CLUSTERS.grant]), query('search_by_views')];

export const PLAYS_ROUTES = routes({
  readMetaCards: {
    edge: 'cached',
    cache: LIFETIMES.library,
    method: 'GET',
    path: '/api/v1/meta/cards',
    query: PlayedCardsQuery,
    catalogue: true,
    cursors: true,
    grants: [decks(['GetItem'], [PLAYS.grant])],
    summary: 'What a faction, an ally or the whole library plays',
    description:
      "The cards of the public decks of main_faction (with ally_faction: of that pair; ally_faction alone: of every deck with that ally; neither: of the whole library), each with the decks that play it, their share of those decks (4 decimals) and the average copies where played (2 decimals); by decks, most first, then card_id; type keeps one card type. meta.decks is the number of decks they are over, meta.as_of when they last changed. distinct=code counts the decks of one canonical code once (eleven copies of a netdeck are one deck); without it every public deck counts. Unlisted and private decks never count. Card names in the language asked (lang, else Accept-Language). One item read (an ally's or the whole library's: the 4 or 5 pools they add up), whatever the library's size.",
    tag: 'Meta',
    success: { status: 200, data: 'PlayedCard[]', meta: 'PlayedCardsMeta', headers: ['Cache-Control', 'Content-Language', 'Vary'] },
  } as const satisfies Declared,
  readMetaFactions: {
    edge: 'cached',
    cache: LIFETIMES.library,
    method: 'GET',
    path: '/api/v1/meta/factions',
    grants: [decks(['GetItem'], [PLAYS.grant]), query(TAGS_INDEX)],
    summary: 'The faction pairs and tags played',
    description:
      'Every main/ally pair of the public decks with its decks and share (4 decimals), most first; the 50 most used tags with their decks (ties by tag, in Unicode code point order). One item and one index page of 50 small items read, whatever the library size or its number of tags. meta.decks: the public decks; meta.as_of: when the figures last changed. Unlisted and private decks never count.',
    tag: 'Meta',
    success: { status: 200, data: 'PlayedFactions', meta: 'PlayedFactionsMeta', headers: ['Cache-Control'] },
  } as const satisfies Declared,
  listArchetypes: {
    // Not kept at the edge: its query (main_faction) would be a cache policy of its own, the account's 7th of 20
    // (docs/deploy.md: three stacks an account fit at 6); and its samples are read as asked (§13.1: no list kept names a
    // deck made private). Two items and a Query of SAMPLE_DECKS entries an archetype shown, under the route's throttle.
    method: 'GET',
    path: '/api/v1/archetypes',
    query: ArchetypesQuery,
    catalogue: true,
    cursors: true,
    grants: ARCHETYPE_GRANTS,
    summary: 'The archetypes the library plays',
    description: `Each archetype of the public decks (contract §13.3: by a rule of the rules in use, or a cluster of the daily job), of main_faction or of all: ${ARCHETYPE_FIGURE}, most decks first, then id; limit at a time (meta.next_cursor goes on after the last one shown, by its decks and id: each page reads the figures as they are then, so an archetype whose decks fell past that key between pages is shown again, one whose decks rose past it is not reached). meta.decks: the public decks; meta.as_of: when the figures last changed; meta.period: the card pool's period of the rules in use (period= another is 404 not_found). Two items read and a Query of ${SAMPLE_DECKS} search entries an archetype listed, whatever the library's size. An archetype no rule or cluster names any more (its decks not yet reclassified) is left out.`,
    tag: 'Meta',
    success: { status: 200, data: 'ArchetypeFigure[]', meta: 'ArchetypesMeta', headers: ['Content-Language', 'Vary'] },
    errors: ['not_found'],
  } as const satisfies Declared,
  readArchetype: {
    method: 'GET',
    path: '/api/v1/archetypes/{archetype_id}',
    params: { archetype_id: ArchetypeId },
    query: ArchetypeQuery,
    catalogue: true,
    grants: ARCHETYPE_GRANTS,
    summary: 'One archetype the library plays',
    description: `An archetype of the public decks as the list shows it: ${ARCHETYPE_FIGURE}. 404 not_found for an id no public deck has (or one no rule or cluster names any more), or a period the rules in use are not of. Two items read and a Query of ${SAMPLE_DECKS} search entries.`,
    tag: 'Meta',
    success: { status: 200, data: 'ArchetypeFigure', meta: 'ArchetypeMeta', headers: ['Content-Language', 'Vary'] },
    errors: ['not_found'],
  } as const satisfies Declared,
});
