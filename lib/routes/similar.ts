/**
 * Decks like this one (contract §12.3): a public or unlisted deck's, or any code's, closest public decks of the same
 * main nation. No key; bounded reads (lib/public/similar.ts). A code's answer is cached at the edge as a code's facts
 * are (by its canonical form), for less than the views window: it names decks, which may turn private.
 */

import { PLAYS } from '#store/items/plays.ts';
import { LIFETIMES } from './cache-lifetimes.ts';
import { CODE_PATHS } from './code-paths.ts';
import { Code, ShareSlug } from './params.ts';
import { type Declared, decks, query, routes } from './route.ts';

const SIMILAR =
  "Up to 10 public decks of the same main nation most alike by copies: score = Σ min(copies) / Σ max(copies) over the cards of both (1: the same cards and copies). Most alike first, ties by views. The deck itself and its exact copies (the same canonical code) are left out, and each other code is listed once (its most viewed deck). Found among the most viewed decks holding one of the deck's three least played cards (at most 100 each): a bounded read at any library size.";
/** What finding decks like one reads: the main nation's figures, and search's partitions on the views index. */
export const SIMILAR_READS = [decks(['GetItem'], [PLAYS.grant]), query('search_by_views')];

export const SIMILAR_ROUTES = routes({
  readSimilarDecks: {
    cache: LIFETIMES.deckList,
    method: 'GET',
    path: '/api/v1/decks/{share_slug}/similar',
    params: { share_slug: ShareSlug },
    grants: [query('by_share_slug'), ...SIMILAR_READS],
    summary: 'Decks like a public or unlisted deck',
    description: `${SIMILAR} A private or unknown slug is 404 deck_not_found. Counts no view.`,
    tag: 'Public decks',
    success: { status: 200, data: 'SimilarDeck[]', headers: ['Cache-Control'] },
    errors: ['deck_not_found'],
  } as const satisfies Declared,
  readSimilarToCode: {
    edge: 'cached',
    cache: LIFETIMES.deckList,
    method: 'GET',
    path: CODE_PATHS.similar,
    params: { code: Code },
    redirects: true,
    grants: SIMILAR_READS,
    summary: 'Public decks like a deck code',
    description: `${SIMILAR} Any other spelling of the code answers 308 to its canonical URL form; one that does not parse is 400.`,
    tag: 'Deck codes',
    success: { status: 200, data: 'SimilarDeck[]', headers: ['Cache-Control'] },
  } as const satisfies Declared,
});
