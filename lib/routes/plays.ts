/**
 * What the library plays (contract §10.3): the cards a faction's public decks play, and the main/ally
 * pairs and tags of all public decks — figures the store-change worker keeps from the decks table's
 * changes (lib/store/plays.ts). No key; each a bounded read at any library size.
 */
import { PlayedCardsQuery } from '#shapes/queries.ts';
import { PLAYS, TAGS_INDEX } from '#store/items/plays.ts';
import { LIFETIMES } from './cache-lifetimes.ts';
import { type Declared, decks, query, routes } from './route.ts';

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
});
