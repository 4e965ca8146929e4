/** Search: public decks by name, faction, tag and cards, without a key (contract §4, §8.5); by what a collection builds, with its owner's (§12.3). */
import { FEED_ENTRIES, FeedQuery, SearchQuery } from '#shapes/queries.ts';
import { ACCOUNT } from '#store/items/account.ts';
import { BOARD } from '#store/items/board.ts';
import { SEARCH_ENTRY } from '#store/items/search-entry.ts';
import { LIFETIMES } from './cache-lifetimes.ts';
import { accounts, type Declared, decks, query, routes } from './route.ts';

export const SEARCH_ROUTES = routes({
  searchDecks: {
    method: 'GET',
    path: '/api/v1/decks',
    query: SearchQuery,
    // Card filters name cards of the catalogue (contract §8.5).
    catalogue: true,
    cursors: true,
    // buildable_by: that account's key (collection:read), and its collection (contract §12.3).
    keyFor: 'collection:read',
    grants: [
      accounts(['GetItem'], [ACCOUNT.grant]),
      query('search_by_date', 'search_by_views', 'search_by_likes', 'search_by_trending'),
      // The browsed orders: a board, then its decks' entries of the facet in one BatchGetItem (lib/store/boards.ts).
      decks(['GetItem'], [BOARD.grant]),
      decks(['BatchGetItem'], [SEARCH_ENTRY.grant]),
    ],
    summary: 'Search public decks',
    description:
      "Public decks only. q matches a substring of the name or guide.system; card and exclude_card pick decks by the cards they hold. sort: date (newest first), views, likes, or trending (views of the last 7 days: whole UTC days plus today; views_7d in each item). Views and trending, unfiltered or by main_faction or ally_faction alone, are exact at rest: once a views window has passed, the first decks (up to 100 a facet) come in the order of their exact counts, each showing it; past them, and with any other filter, the order and counts are folded (docs/api.md says by how much). page × limit is at most 1,000; walk further with meta.next_cursor. A page that runs out of its read budget comes back short, with a next_cursor. format keeps the decks legal in a format (pauper, singleton, monodeck). buildable_by keeps the decks that account's collection can build missing at most missing_max copies (default 0), each item saying what it misses: it needs a key of that account with the collection:read scope (another account's key is 403).",
    tag: 'Public decks',
    success: { status: 200, data: 'SearchItem[]', meta: 'ListMeta' },
  } as const satisfies Declared,
  readDeckFeed: {
    // Kept at the edge as long as a list naming decks may be (a deck turned private leaves within the views window).
    edge: 'cached',
    cache: LIFETIMES.deckList,
    method: 'GET',
    path: '/api/v1/decks/feed.atom',
    query: FeedQuery,
    catalogue: true,
    grants: [query('search_by_date')],
    summary: 'Public decks as an Atom feed',
    description: `The newest public decks (at most ${FEED_ENTRIES}, limit fewer) that search's filters keep — q, main_faction, ally_faction, tag, archetype, card, exclude_card, format — as an Atom feed (RFC 4287) for feed readers: each entry a deck (its id urn:uuid:<deck id>, its name, author, when it was made and last changed — newest made first, so a deck made public later sits at its creation's place, its share page as the alternate link, and a summary of its nations, kredit curve and code). Read on search's budget: a filter that matches few decks may give fewer entries. No key; the same feed for everyone.`,
    tag: 'Public decks',
    success: {
      status: 200,
      data: 'Text',
      bare: true,
      contentType: 'application/atom+xml; charset=utf-8',
      headers: ['ETag', 'Cache-Control'],
      conditional: true,
    },
  } as const satisfies Declared,
});
