/** Owner decks: an owner's own decks, by API key (contract §4). */
import { OwnerListQuery } from '#shapes/queries.ts';
import { DECK } from '#store/items/deck.ts';
import { LIKE_COUNT } from '#store/items/like-count.ts';
import { REMEMBERED_ANSWER } from '#store/items/remembered-answer.ts';
import { SEARCH_ENTRY } from '#store/items/search-entry.ts';
import { VERSION } from '#store/items/version.ts';
import { VIEW_COUNT } from '#store/items/view-count.ts';
import { changing } from './grants.ts';
import { DeckId, UserId } from './params.ts';
import { type Declared, decks, query, routes } from './route.ts';

export const OWNER = '/api/v1/users/{user_id}/decks';
const owner = { user_id: UserId } as const;
const ownDeck = { user_id: UserId, deck_id: DeckId } as const;

export const OWNER_DECK_ROUTES = routes({
  listDecks: {
    method: 'GET',
    path: OWNER,
    scope: 'decks:read',
    params: owner,
    query: OwnerListQuery,
    cursors: true,
    grants: [query('by_owner_order')],
    summary: "List the caller's decks",
    description: 'By sort_order ascending, then most recently updated. Items are owner decks without guide.description and archive.',
    tag: 'Owner decks',
    success: { status: 200, data: 'OwnerListItem[]', meta: 'ListMeta' },
  } as const satisfies Declared,
  readDeck: {
    method: 'GET',
    path: `${OWNER}/{deck_id}`,
    scope: 'decks:read',
    params: ownDeck,
    // Stats and legality against the catalogue the service runs with now (contract §8.6).
    catalogue: true,
    grants: [decks(['GetItem'], [DECK.grant])],
    summary: "Read one of the caller's decks",
    description: 'The ETag is the deck\'s version ("<version>"): send it back as If-Match to update safely.',
    tag: 'Owner decks',
    success: { status: 200, data: 'OwnerDeck', headers: ['ETag'] },
    errors: ['deck_not_found'],
  } as const satisfies Declared,
  createDeck: {
    method: 'POST',
    path: OWNER,
    scope: 'decks:write',
    params: owner,
    body: 'CreateBody',
    catalogue: true,
    // The deck, its first version, its search entries and its remembered answer (Idempotency-Key; one transaction); reading the answer back.
    grants: [
      decks(['PutItem'], [DECK.grant, VERSION.grant, SEARCH_ENTRY.grant, REMEMBERED_ANSWER.grant]),
      decks(['GetItem'], [REMEMBERED_ANSWER.grant]),
    ],
    summary: 'Create a deck from a deck code',
    description:
      'Name, factions and cards_snapshot are derived from deck_code; they cannot be written. With an Idempotency-Key, a repeat with the same body answers what the first answered (Idempotent-Replayed: true) and creates nothing; the same key with another body is 409.',
    tag: 'Owner decks',
    requestHeaders: ['Idempotency-Key'],
    success: { status: 201, data: 'OwnerDeck', headers: ['Location', 'ETag', 'Idempotent-Replayed'] },
    errors: ['idempotency_conflict', 'invalid_parameter'],
  } as const satisfies Declared,
  updateDeck: {
    method: 'PATCH',
    path: `${OWNER}/{deck_id}`,
    scope: 'decks:write',
    params: ownDeck,
    body: 'PatchBody',
    catalogue: true,
    grants: changing,
    summary: 'Update a deck',
    description:
      'A submitted guide replaces the whole guide; each archive section written replaces that section. With If-Match, a deck changed since that version is 412. A PATCH that changes nothing writes nothing: the deck keeps its version and ETag.',
    tag: 'Owner decks',
    requestHeaders: ['If-Match'],
    success: { status: 200, data: 'OwnerDeck', headers: ['ETag'] },
    errors: ['deck_not_found', 'precondition_failed'],
  } as const satisfies Declared,
  validateDeck: {
    method: 'POST',
    path: `${OWNER}/validate`,
    scope: 'decks:write',
    params: owner,
    body: 'CreateBody',
    catalogue: true,
    grants: [],
    summary: 'Validate a deck body without saving it',
    description: 'Answers the normalised deck, or exactly the 422 a create would answer. Nothing is written.',
    tag: 'Owner decks',
    success: { status: 200, data: 'ValidateResult' },
  } as const satisfies Declared,
  replaceCards: {
    method: 'POST',
    path: `${OWNER}/replace`,
    scope: 'decks:write',
    params: owner,
    body: 'ReplaceBody',
    catalogue: true,
    grants: [],
    summary: 'Replace cards in a deck code',
    description:
      'Each replacement removes count copies of one card and adds as many of another, in order; then every deck rule is checked. Nothing is written.',
    tag: 'Owner decks',
    success: { status: 200, data: 'ReplaceResult' },
  } as const satisfies Declared,
  deleteDeck: {
    method: 'DELETE',
    path: `${OWNER}/{deck_id}`,
    scope: 'decks:delete',
    params: ownDeck,
    body: 'EmptyBody',
    // The deck, its entries, its counter and its view count in one transaction; its likes are the worker's.
    grants: [decks(['GetItem'], [DECK.grant]), decks(['DeleteItem'], [DECK.grant, SEARCH_ENTRY.grant, LIKE_COUNT.grant, VIEW_COUNT.grant])],
    summary: 'Delete a deck',
    description: 'The body is exactly {}. Needs the decks:delete scope (no other scope stands in).',
    tag: 'Owner decks',
    requestHeaders: ['If-Match'],
    success: { status: 200, data: 'DeleteResult' },
    errors: ['deck_not_found', 'precondition_failed'],
  } as const satisfies Declared,
  readDeckOtk: {
    method: 'GET',
    path: `${OWNER}/{deck_id}/otk`,
    scope: 'decks:read',
    params: ownDeck,
    grants: [decks(['GetItem'], [DECK.grant])],
    summary: "The OTK chart of one of the caller's decks",
    description:
      'For each archive.chart_settings.otkConfig item: the copies of its cards in the deck, and by_draws[n-1], the exact probability that the first n cards of the shuffled 39 hold at least `required` of them.',
    tag: 'Owner decks',
    success: { status: 200, data: 'OtkChart' },
    errors: ['deck_not_found'],
  } as const satisfies Declared,
});
