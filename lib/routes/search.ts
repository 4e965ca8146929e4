/** Search: public decks by name, faction, tag and cards, without a key (contract §4, §8.5). */
import { SearchQuery } from '#shapes/queries.ts';
import { type ApiRoute, query } from './route.ts';

export const searchDecks = {
  name: 'searchDecks',
  method: 'GET',
  path: '/api/v1/decks',
  handler: 'functions/search-decks.ts',
  query: SearchQuery,
  // Card filters name cards of the catalogue (contract §8.5).
  catalogue: true,
  cursors: true,
  grants: [query('search_by_date', 'search_by_views', 'search_by_likes', 'search_by_trending')],
  summary: 'Search public decks',
  description:
    'Public decks only. q matches a substring of the name or guide.system; card and exclude_card pick decks by the cards they hold. sort: date (newest first), views, likes, or trending (views of the last 7 days: whole UTC days plus today; views_7d in each item). page × limit is at most 1,000; walk further with meta.next_cursor. A page that runs out of its read budget comes back short, with a next_cursor.',
  tag: 'Public decks',
  success: { status: 200, data: 'SearchItem[]', meta: 'ListMeta' },
} as const satisfies ApiRoute;

export const SEARCH_ROUTES = [searchDecks] as const;
