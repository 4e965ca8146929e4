/** History and diff (contract §9.2): a deck's versions, for its owner and for the public, and two decks compared. */
import { DiffQuery, VersionsQuery } from '#shapes/queries.ts';
import { DECK } from '#store/items/deck.ts';
import { VERSION } from '#store/items/version.ts';
import { changing } from './grants.ts';
import { OWNER } from './owner-decks.ts';
import { DeckId, ShareSlug, UserId, Version } from './params.ts';
import { type Declared, decks, query, routes } from './route.ts';

const VERSIONS = `${OWNER}/{deck_id}/versions`;

export const HISTORY_ROUTES = routes({
  listDeckVersions: {
    method: 'GET',
    path: VERSIONS,
    scope: 'decks:read',
    params: { user_id: UserId, deck_id: DeckId },
    query: VersionsQuery,
    cursors: true,
    // One Query of the deck's versions; the deck read only when it has none (an unknown deck is 404).
    grants: [decks(['Query'], [VERSION.grant]), decks(['GetItem'], [DECK.grant])],
    summary: "A deck's history",
    description:
      "The kept versions (the last 100), newest first. Each names the writable fields that differ from the version before (changed) and the change of its card list (cards: count is the change in copies); both are empty for version 1 and when the code did not change. A deck that is not the caller's is 404 deck_not_found.",
    tag: 'Owner decks',
    success: { status: 200, data: 'VersionListItem[]', meta: 'ListMeta' },
    errors: ['deck_not_found'],
  } as const satisfies Declared,
  readDeckVersion: {
    method: 'GET',
    path: `${VERSIONS}/{version}`,
    scope: 'decks:read',
    params: { user_id: UserId, deck_id: DeckId, version: Version },
    // Stats and legality against the catalogue the service runs with now (contract §8.6).
    catalogue: true,
    // The version, and the versions its unchanged texts are held by; the deck read only when the version is not kept.
    grants: [decks(['GetItem'], [VERSION.grant, DECK.grant])],
    summary: 'One version of a deck',
    description:
      'The owner deck as it was at that version, without views and likes (they are not versioned); stats and legality against the catalogue the service runs with now. A version that is not kept is 404 version_not_found.',
    tag: 'Owner decks',
    success: { status: 200, data: 'DeckVersion' },
    errors: ['deck_not_found', 'version_not_found'],
  } as const satisfies Declared,
  restoreDeckVersion: {
    method: 'POST',
    path: `${VERSIONS}/{version}/restore`,
    scope: 'decks:write',
    params: { user_id: UserId, deck_id: DeckId, version: Version },
    body: 'EmptyBody',
    // Judged by today's rules and catalogue, as a PATCH is.
    catalogue: true,
    grants: [decks(['GetItem'], [VERSION.grant]), ...changing],
    summary: 'Restore a version of a deck',
    description:
      "The body is exactly {}. Makes the deck's writable fields what they were at that version, as a PATCH of all of them would: today's rules and catalogue apply (422 with every failing rule when that version no longer passes), and the result is a new version (none when nothing changes). With If-Match, a deck changed since that version is 412.",
    tag: 'Owner decks',
    requestHeaders: ['If-Match'],
    success: { status: 200, data: 'OwnerDeck', headers: ['ETag'] },
    errors: ['deck_not_found', 'version_not_found', 'precondition_failed'],
  } as const satisfies Declared,
  diffDecks: {
    method: 'GET',
    // Static, so it wins over /api/v1/decks/{share_slug} (API Gateway's precedence; "diff" is no share slug).
    path: '/api/v1/decks/diff',
    query: DiffQuery,
    exampleQuery: 'from={share_slug}&to={share_slug}',
    // Both decks' stats against the catalogue the service runs with now (contract §8.6); decks by share slug.
    catalogue: true,
    grants: [query('by_share_slug')],
    summary: 'Compare two decks',
    description:
      "from and to are each a share slug of a public or unlisted deck, or a URL-encoded deck code (%%…). Answers the cards added and removed (count: the change in copies) and kept (count: the copies both hold), each sorted by card id, and both decks' stats. A code that does not parse is 400 invalid_parameter; an unknown, private or malformed slug is 404 deck_not_found. Counts no view.",
    tag: 'Public decks',
    success: { status: 200, data: 'DeckDiff' },
    errors: ['deck_not_found'],
  } as const satisfies Declared,
  listSharedVersions: {
    method: 'GET',
    path: '/api/v1/decks/{share_slug}/versions',
    params: { share_slug: ShareSlug },
    query: VersionsQuery,
    cursors: true,
    grants: [query('by_share_slug'), decks(['Query'], [VERSION.grant])],
    summary: "A public or unlisted deck's history",
    description:
      'The versions made while the deck was public or unlisted, newest first; changed names only deck_code, guide, archive and tags, and the first version after private ones shows no change (what it changed from was never public). A private or unknown slug is 404 deck_not_found. Counts no view.',
    tag: 'Public decks',
    success: { status: 200, data: 'PublicVersionListItem[]', meta: 'ListMeta' },
    errors: ['deck_not_found'],
  } as const satisfies Declared,
});
