/**
 * The route table: every route of the API, joined from its groups (one file each, by what the routes are
 * for). The local runtime, the CDK stack, IAM, the OpenAPI document and the tests' route lists are all
 * made from it; an endpoint is tied to its route's declaration by the compiler (lib/http/types.ts).
 */
import { ACCOUNT_ROUTES } from './account.ts';
import { BULK_DATA_ROUTES } from './bulk-data.ts';
import { CARD_ROUTES } from './cards.ts';
import { CODE_TEXT_ROUTES } from './code-text.ts';
import { CODE_ROUTES } from './codes.ts';
import { COLLECTION_ROUTES } from './collection.ts';
import { DISCORD_ROUTES } from './discord.ts';
import { notFound } from './fallback.ts';
import { HISTORY_ROUTES } from './history.ts';
import { LIKE_ROUTES } from './likes.ts';
import { OWNER_DECK_ROUTES } from './owner-decks.ts';
import { PLAYS_ROUTES } from './plays.ts';
import { PUBLIC_ROUTES } from './public.ts';
import { REFERENCE_ROUTES } from './reference.ts';
import type { Route } from './route.ts';
import { SEARCH_ROUTES } from './search.ts';
import { SHARE_ROUTES } from './share.ts';
import { SIMILAR_ROUTES } from './similar.ts';

export * from './route.ts';

/**
 * The route groups, by what their routes are for: the stack deploys each group's functions as a nested
 * stack of their own (infra/stack.ts), so that no CloudFormation stack nears its 500 resources.
 */
export const ROUTE_GROUPS = {
  ownerDecks: OWNER_DECK_ROUTES,
  history: HISTORY_ROUTES,
  likes: LIKE_ROUTES,
  search: [...SEARCH_ROUTES, ...SIMILAR_ROUTES],
  public: PUBLIC_ROUTES,
  share: SHARE_ROUTES,
  codes: CODE_ROUTES,
  codeText: CODE_TEXT_ROUTES,
  discord: DISCORD_ROUTES,
  plays: [...PLAYS_ROUTES, ...BULK_DATA_ROUTES],
  account: ACCOUNT_ROUTES,
  collection: COLLECTION_ROUTES,
  cards: CARD_ROUTES,
  reference: REFERENCE_ROUTES,
  fallback: [notFound],
} as const satisfies Record<string, readonly Route[]>;

export const ROUTES = Object.values(ROUTE_GROUPS).flat() satisfies readonly Route[];

export type RouteName = (typeof ROUTES)[number]['name'];

export function routeByName(name: RouteName): Route {
  return ROUTES.find((r) => r.name === name) as Route;
}
