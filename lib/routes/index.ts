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
import { EVENT_ROUTES } from './events.ts';
import { FALLBACK_ROUTES } from './fallback.ts';
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
import { WEBHOOK_ROUTES } from './webhooks.ts';

export * from './route.ts';

/**
 * The route groups, by what their routes are for: the stack deploys each group's functions as a nested
 * stack of their own (infra/stack.ts), so that no CloudFormation stack nears its 500 resources.
 */
export const ROUTE_GROUPS = {
  ownerDecks: Object.values(OWNER_DECK_ROUTES),
  history: Object.values(HISTORY_ROUTES),
  likes: Object.values(LIKE_ROUTES),
  search: [...Object.values(SEARCH_ROUTES), ...Object.values(SIMILAR_ROUTES)],
  public: Object.values(PUBLIC_ROUTES),
  share: Object.values(SHARE_ROUTES),
  codes: Object.values(CODE_ROUTES),
  codeText: Object.values(CODE_TEXT_ROUTES),
  discord: Object.values(DISCORD_ROUTES),
  plays: [...Object.values(PLAYS_ROUTES), ...Object.values(BULK_DATA_ROUTES)],
  account: Object.values(ACCOUNT_ROUTES),
  collection: Object.values(COLLECTION_ROUTES),
  events: Object.values(EVENT_ROUTES),
  webhooks: Object.values(WEBHOOK_ROUTES),
  cards: Object.values(CARD_ROUTES),
  reference: Object.values(REFERENCE_ROUTES),
  fallback: Object.values(FALLBACK_ROUTES),
} as const satisfies Record<string, readonly Route[]>;

export const ROUTES = Object.values(ROUTE_GROUPS).flat() satisfies readonly Route[];

export type RouteName = (typeof ROUTES)[number]['name'];

export function routeByName(name: RouteName): Route {
  return ROUTES.find((r) => r.name === name) as Route;
}
