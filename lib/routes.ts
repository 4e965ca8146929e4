/**
 * The route table: every route of the API, its Lambda entry and what it needs. The local server and
 * the CDK stack are both built from it, so they cannot drift.
 */
import type { Scope } from '#auth/keys.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

export interface Route {
  name: string;
  method: Method;
  /** API Gateway path syntax: `{param}`; `$default` catches what no other route matches. */
  path: string;
  /** The handler module, relative to the project root; it exports `handler`. */
  entry: string;
  /** Required key scope; none for public routes. */
  scope?: Scope;
  /** Whether the route reads a JSON body. */
  body: boolean;
}

const owner = '/api/v1/users/{user_id}/decks';

export const ROUTES = [
  { name: 'listDecks', method: 'GET', path: owner, entry: 'functions/list-decks.ts', scope: 'decks:read', body: false },
  { name: 'readDeck', method: 'GET', path: `${owner}/{deck_id}`, entry: 'functions/read-deck.ts', scope: 'decks:read', body: false },
  { name: 'createDeck', method: 'POST', path: owner, entry: 'functions/create-deck.ts', scope: 'decks:write', body: true },
  { name: 'updateDeck', method: 'PATCH', path: `${owner}/{deck_id}`, entry: 'functions/update-deck.ts', scope: 'decks:write', body: true },
  { name: 'validateDeck', method: 'POST', path: `${owner}/validate`, entry: 'functions/validate-deck.ts', scope: 'decks:write', body: true },
  { name: 'replaceCards', method: 'POST', path: `${owner}/replace`, entry: 'functions/replace-cards.ts', scope: 'decks:write', body: true },
  { name: 'deleteDeck', method: 'DELETE', path: `${owner}/{deck_id}`, entry: 'functions/delete-deck.ts', scope: 'decks:delete', body: true },
  { name: 'likeDeck', method: 'PUT', path: '/api/v1/users/{user_id}/likes/{share_slug}', entry: 'functions/like-deck.ts', scope: 'decks:write', body: false },
  { name: 'unlikeDeck', method: 'DELETE', path: '/api/v1/users/{user_id}/likes/{share_slug}', entry: 'functions/unlike-deck.ts', scope: 'decks:write', body: false },
  { name: 'searchDecks', method: 'GET', path: '/api/v1/decks', entry: 'functions/search-decks.ts', body: false },
  { name: 'readSharedDeck', method: 'GET', path: '/api/v1/decks/{share_slug}', entry: 'functions/read-shared-deck.ts', body: false },
  { name: 'listCards', method: 'GET', path: '/api/v1/cards', entry: 'functions/list-cards.ts', body: false },
  { name: 'readCard', method: 'GET', path: '/api/v1/cards/{card_id}', entry: 'functions/read-card.ts', body: false },
  { name: 'notFound', method: 'ANY', path: '$default', entry: 'functions/not-found.ts', body: false },
] as const satisfies readonly Route[];

export type RouteName = (typeof ROUTES)[number]['name'];

export function routeByName(name: RouteName): Route {
  return ROUTES.find((r) => r.name === name) as Route;
}
