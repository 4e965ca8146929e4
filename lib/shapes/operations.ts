/**
 * What the published contract says of each route beyond the route table: its summary and group, its
 * request body, its success answer (status, data shape, meta shape, headers), the request headers it
 * honours and the route-specific errors it can answer. Keyed by route name and checked by the
 * compiler against the route table; generic errors (auth, bodies, queries, the store) follow from
 * the route table itself (openapi.ts). Every shape is the one the code builds or parses.
 */
import * as v from 'valibot';
import type { ROUTES, RouteName } from '#routes';
import type { ErrorCode } from './errors.ts';
import { CardQuery, DiffQuery, ExportQuery, OwnerListQuery, SearchQuery, VersionsQuery } from './queries.ts';
import { CreateBody, EmptyBody, ErasureBody, KeyBody, PatchBody, ReplaceBody } from './requests.ts';
import * as S from './responses.ts';

export type ResponseHeader =
  | 'ETag'
  | 'Location'
  | 'Cache-Control'
  | 'Idempotent-Replayed'
  | 'Content-Security-Policy'
  | 'X-Frame-Options'
  | 'Content-Encoding'
  | 'Vary';
export type RequestHeader = 'If-Match' | 'If-None-Match' | 'Idempotency-Key';

export interface Operation {
  summary: string;
  description?: string;
  tag: 'Owner decks' | 'Likes' | 'Public decks' | 'Keys and account' | 'Cards' | 'Reference';
  query?: v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;
  body?: v.GenericSchema;
  success: {
    status: 200 | 201;
    /** The `data` shape; or, with `bare`, the whole body. */
    data: v.GenericSchema;
    meta?: v.GenericSchema;
    bare?: boolean;
    headers?: ResponseHeader[];
    /** Answers 304 to a matching If-None-Match. */
    conditional?: boolean;
    /** Its media type, when not JSON (the docs page and its assets). */
    contentType?: string;
  };
  requestHeaders?: RequestHeader[];
  /** Errors this route answers beyond those every route of its kind answers. */
  errors?: ErrorCode[];
  /** A page for people: a slug no one may see answers 404 with an HTML page, not the envelope. */
  page404?: boolean;
}

/** The OpenAPI document itself (its operation answers the bare document). */
export const OpenApiDocument = v.looseObject({ openapi: v.literal('3.1.0'), info: v.looseObject({}), paths: v.looseObject({}) });

export const OPERATIONS = {
  listDecks: {
    summary: "List the caller's decks",
    description: 'By sort_order ascending, then most recently updated. Items are owner decks without guide.description and archive.',
    tag: 'Owner decks',
    query: OwnerListQuery,
    success: { status: 200, data: v.array(S.OwnerListItem), meta: S.ListMeta },
  },
  readDeck: {
    summary: "Read one of the caller's decks",
    description: 'The ETag is the deck\'s version ("<version>"): send it back as If-Match to update safely.',
    tag: 'Owner decks',
    success: { status: 200, data: S.OwnerDeck, headers: ['ETag'] },
    errors: ['deck_not_found'],
  },
  createDeck: {
    summary: 'Create a deck from a deck code',
    description:
      'Name, factions and cards_snapshot are derived from deck_code; they cannot be written. With an Idempotency-Key, a repeat with the same body answers what the first answered (Idempotent-Replayed: true) and creates nothing; the same key with another body is 409.',
    tag: 'Owner decks',
    body: CreateBody,
    requestHeaders: ['Idempotency-Key'],
    success: { status: 201, data: S.OwnerDeck, headers: ['Location', 'ETag', 'Idempotent-Replayed'] },
    errors: ['idempotency_conflict', 'invalid_parameter'],
  },
  updateDeck: {
    summary: 'Update a deck',
    description:
      'A submitted guide replaces the whole guide; each archive section written replaces that section. With If-Match, a deck changed since that version is 412. A PATCH that changes nothing writes nothing: the deck keeps its version and ETag.',
    tag: 'Owner decks',
    body: PatchBody,
    requestHeaders: ['If-Match'],
    success: { status: 200, data: S.OwnerDeck, headers: ['ETag'] },
    errors: ['deck_not_found', 'precondition_failed'],
  },
  validateDeck: {
    summary: 'Validate a deck body without saving it',
    description: 'Answers the normalised deck, or exactly the 422 a create would answer. Nothing is written.',
    tag: 'Owner decks',
    body: CreateBody,
    success: { status: 200, data: S.ValidateResult },
  },
  replaceCards: {
    summary: 'Replace cards in a deck code',
    description:
      'Each replacement removes count copies of one card and adds as many of another, in order; then every deck rule is checked. Nothing is written.',
    tag: 'Owner decks',
    body: ReplaceBody,
    success: { status: 200, data: S.ReplaceResult },
  },
  deleteDeck: {
    summary: 'Delete a deck',
    description: 'The body is exactly {}. Needs the decks:delete scope (no other scope stands in).',
    tag: 'Owner decks',
    body: EmptyBody,
    requestHeaders: ['If-Match'],
    success: { status: 200, data: S.DeleteResult },
    errors: ['deck_not_found', 'precondition_failed'],
  },
  listDeckVersions: {
    summary: "A deck's history",
    description:
      "The kept versions (the last 100), newest first. Each names the writable fields that differ from the version before (changed) and the change of its card list (cards: count is the change in copies); both are empty for version 1 and when the code did not change. A deck that is not the caller's is 404 deck_not_found.",
    tag: 'Owner decks',
    query: VersionsQuery,
    success: { status: 200, data: v.array(S.VersionListItem), meta: S.ListMeta },
    errors: ['deck_not_found'],
  },
  readDeckVersion: {
    summary: 'One version of a deck',
    description:
      'The owner deck as it was at that version, without views and likes (they are not versioned); stats and legality against the catalogue the service runs with now. A version that is not kept is 404 version_not_found.',
    tag: 'Owner decks',
    success: { status: 200, data: S.DeckVersion },
    errors: ['deck_not_found', 'version_not_found'],
  },
  restoreDeckVersion: {
    summary: 'Restore a version of a deck',
    description:
      "The body is exactly {}. Makes the deck's writable fields what they were at that version, as a PATCH of all of them would: today's rules and catalogue apply (422 with every failing rule when that version no longer passes), and the result is a new version (none when nothing changes). With If-Match, a deck changed since that version is 412.",
    tag: 'Owner decks',
    body: EmptyBody,
    requestHeaders: ['If-Match'],
    success: { status: 200, data: S.OwnerDeck, headers: ['ETag'] },
    errors: ['deck_not_found', 'version_not_found', 'precondition_failed'],
  },
  likeDeck: {
    summary: 'Like a public or unlisted deck',
    description: 'Once per account; a repeat changes nothing.',
    tag: 'Likes',
    success: { status: 200, data: S.LikeResult },
    errors: ['deck_not_found'],
  },
  unlikeDeck: {
    summary: 'Take a like back',
    description: 'A repeat changes nothing.',
    tag: 'Likes',
    success: { status: 200, data: S.LikeResult },
    errors: ['deck_not_found'],
  },
  searchDecks: {
    summary: 'Search public decks',
    description:
      'Public decks only. q matches a substring of the name or guide.system; card and exclude_card pick decks by the cards they hold. page × limit is at most 1,000; walk further with meta.next_cursor. A page that runs out of its read budget comes back short, with a next_cursor.',
    tag: 'Public decks',
    query: SearchQuery,
    success: { status: 200, data: v.array(S.SearchItem), meta: S.ListMeta },
  },
  diffDecks: {
    summary: 'Compare two decks',
    description:
      "from and to are each a share slug of a public or unlisted deck, or a URL-encoded deck code (%%…). Answers the cards added and removed (count: the change in copies) and kept (count: the copies both hold), each sorted by card id, and both decks' stats. A code that does not parse is 400 invalid_parameter; an unknown, private or malformed slug is 404 deck_not_found. Counts no view.",
    tag: 'Public decks',
    query: DiffQuery,
    success: { status: 200, data: S.DeckDiff },
    errors: ['deck_not_found'],
  },
  listSharedVersions: {
    summary: "A public or unlisted deck's history",
    description:
      'The versions made while the deck was public or unlisted, newest first; changed names only deck_code, guide, archive and tags, and the first version after private ones shows no change (what it changed from was never public). A private or unknown slug is 404 deck_not_found. Counts no view.',
    tag: 'Public decks',
    query: VersionsQuery,
    success: { status: 200, data: v.array(S.PublicVersionListItem), meta: S.ListMeta },
    errors: ['deck_not_found'],
  },
  readSharedDeck: {
    summary: 'Read a public or unlisted deck by its share slug',
    description: 'Counts one view. A private or unknown slug is 404 deck_not_found.',
    tag: 'Public decks',
    success: { status: 200, data: S.PublicDeck, headers: ['Cache-Control'] },
    errors: ['deck_not_found'],
  },
  listCards: {
    summary: 'The card catalogue',
    description: 'The source of card_id values. Changes only with a deployment: cacheable, with an ETag.',
    tag: 'Cards',
    query: CardQuery,
    success: { status: 200, data: v.array(S.Card), meta: S.CardListMeta, headers: ['ETag', 'Cache-Control'], conditional: true },
  },
  readCard: {
    summary: 'One card',
    description: 'A card of the catalogue by its card_id; an unknown id is 404 card_not_found.',
    tag: 'Cards',
    success: { status: 200, data: S.Card, headers: ['ETag', 'Cache-Control'], conditional: true },
    errors: ['card_not_found'],
  },
  openApi: {
    summary: 'This document',
    description: 'The OpenAPI 3.1 document itself, not wrapped in the envelope.',
    tag: 'Reference',
    success: { status: 200, data: OpenApiDocument, bare: true, headers: ['ETag', 'Cache-Control'], conditional: true },
  },
  readDeckOtk: {
    summary: "The OTK chart of one of the caller's decks",
    description:
      'For each archive.chart_settings.otkConfig item: the copies of its cards in the deck, and by_draws[n-1], the exact probability that the first n cards of the shuffled 39 hold at least `required` of them.',
    tag: 'Owner decks',
    success: { status: 200, data: S.OtkChart },
    errors: ['deck_not_found'],
  },
  readSharedOtk: {
    summary: 'The OTK chart of a public or unlisted deck',
    description: 'As for the owner, for a public or unlisted deck by its share slug. Counts no view.',
    tag: 'Public decks',
    success: { status: 200, data: S.OtkChart },
    errors: ['deck_not_found'],
  },
  readSharePage: {
    summary: 'The share page of a public or unlisted deck',
    description:
      "An HTML page for people (not JSON): the deck's cards by kredit cost, its kredit curve and types, guide and OTK chart, its code with a copy button, and the Open Graph and Twitter tags link previews read (og:image is the deck image). Unlisted decks carry robots noindex. Counts one view, as the JSON read does. A private or unknown slug answers a 404 page (HTML).",
    tag: 'Public decks',
    success: {
      status: 200,
      data: v.string(),
      bare: true,
      contentType: 'text/html',
      headers: ['Cache-Control', 'Content-Security-Policy', 'X-Frame-Options'],
    },
    page404: true,
  },
  readDeckImage: {
    summary: 'The image of a public or unlisted deck',
    description:
      'A 1200×630 PNG: name, factions, author, the cards by kredit cost with copies, the kredit curve. Its ETag changes with the deck and the catalogue; send it back as If-None-Match for a 304. Counts no view.',
    tag: 'Public decks',
    success: {
      status: 200,
      data: v.string(),
      bare: true,
      contentType: 'image/png',
      headers: ['ETag', 'Cache-Control'],
      conditional: true,
    },
    errors: ['deck_not_found'],
  },
  exportAccount: {
    summary: 'Export the account',
    description:
      "Everything the account owns, by pages: the account, its decks whole (guide.description and archive included; 25 a page, in id order, by cursor) and, on the first page, the share slugs it likes. A deck's deck_code and writable fields are exactly what create takes: POST each to /api/v1/users/{user_id}/decks of another account (or service) to rebuild the library.",
    tag: 'Keys and account',
    query: ExportQuery,
    success: { status: 200, data: S.AccountExport, meta: S.ExportMeta },
  },
  listKeys: {
    summary: "The account's keys",
    description:
      "Newest first (the latest 100): each key's id, label, scopes, status (active, revoked, or expired past its expires_at) and dates — never a secret. A key made a moment ago may take a moment to be listed.",
    tag: 'Keys and account',
    success: { status: 200, data: v.array(S.KeyItem) },
  },
  createKey: {
    summary: 'Make a key',
    description:
      'scopes: at least one, each a scope the calling key holds itself (asking for more is 403 insufficient_scope); label: up to 60 characters; expires_in_days: 1-365 (none: it does not expire). The secret (api_key) is shown in this answer only. At most 20 active keys per account (422, too_many).',
    tag: 'Keys and account',
    body: KeyBody,
    success: { status: 201, data: S.CreatedKey },
  },
  revokeKey: {
    summary: 'Revoke a key',
    description:
      'Body {}. The key stops working at once (the calling key may revoke itself). Revoking a revoked key again answers the same.',
    tag: 'Keys and account',
    body: EmptyBody,
    success: { status: 200, data: S.RevokedKey },
    errors: ['key_not_found'],
  },
  eraseAccount: {
    summary: 'Erase the account',
    description:
      'Body { "confirm": "<user_id>" } (anything else 422). Erases the account and everything it owns or gave: every deck with its search entries, counters, views, versions and likes received; every like it gave (the liked decks\' counts go down); its keys; its idempotency records; the account item. decks is how many decks the account had when its erasure began. From the answer on, every key of the account is 401 and every share slug of its decks 404; the rest is finished in the background within a minute. A request that fails (503) has begun the erasure: a repeat finishes it. Export first (GET /api/v1/users/{user_id}/export) to keep a copy.',
    tag: 'Keys and account',
    body: ErasureBody,
    success: { status: 200, data: S.ErasedAccount },
  },
  docsPage: {
    summary: 'This reference, as a page',
    description: 'An interactive reference rendered from this document; its script is served by the API itself.',
    tag: 'Reference',
    success: {
      status: 200,
      data: v.string(),
      bare: true,
      contentType: 'text/html',
      headers: ['ETag', 'Cache-Control', 'Content-Security-Policy', 'X-Frame-Options'],
      conditional: true,
    },
  },
  docsAsset: {
    summary: "The reference page's script",
    description: 'scalar.js, the only asset of the page: compressed (br or gzip) when Accept-Encoding allows.',
    tag: 'Reference',
    success: {
      status: 200,
      data: v.string(),
      bare: true,
      contentType: 'text/javascript',
      headers: ['ETag', 'Cache-Control', 'Vary', 'Content-Encoding'],
      conditional: true,
    },
    errors: ['not_found'],
  },
} as const satisfies Record<Exclude<RouteName, 'notFound'>, Operation>;

type OperationName = keyof typeof OPERATIONS;
type BodyOf<N extends OperationName> = Extract<(typeof ROUTES)[number], { name: N }>['body'];
/** Operations whose route's `body` says otherwise than the operation (a body declared for a route that reads none, or none for one that does). */
type BodiesDisagree = {
  [N in OperationName]: BodyOf<N> extends ('body' extends keyof (typeof OPERATIONS)[N] ? true : false) ? never : N;
}[OperationName];
/** Compiles only while the route table and every operation agree on which routes take a body. */
export type BodiesAgree = [BodiesDisagree] extends [never] ? true : { disagree: BodiesDisagree };
export const BODIES_AGREE: BodiesAgree = true;
