/**
 * The bulk files' listing (contract §12.2): what a site or a bot downloads instead of paging search — every public
 * deck in one daily file, and the library's figures — in Scryfall's bulk-data shape. No key; kept at the edge
 * minutes (a new file is listed within them); the files themselves are served by the edge from the bucket
 * (infra/constructs/edge.ts), or by a presigned link without the edge.
 */
import { BULK_DATA } from '#store/items/bulk-data.ts';
import { LIFETIMES } from './cache-lifetimes.ts';
import { BulkId } from './params.ts';
import { type Declared, decks, routes } from './route.ts';

export const BULK_DATA_ROUTES = routes({
  readBulkData: {
    edge: 'cached',
    cache: LIFETIMES.bulkListing,
    method: 'GET',
    path: '/api/v1/bulk-data',
    objects: 'link',
    grants: [decks(['BatchGetItem'], [BULK_DATA.grant])],
    summary: 'The bulk files: every public deck, and what the library plays',
    description:
      "Each bulk file's newest version, written once a day (about 04:45 UTC): `decks`, every public deck as one JSON object a line (NDJSON; a line's schema is the linked BulkDeck), and `plays`, the library's card figures and faction pairs and tags as meta/cards and meta/factions answer them (BulkPlays). Each with its id and uri, when it was written, its download_uri, its size and SHA-256 (of the bytes downloaded: gzip, content_encoding), its records (decks; the card figures) and the schema of a record. In Scryfall's bulk-data shape — `object: \"list\"`, `has_more`, `data[]` of `object: \"bulk_data\"` — so a client of Scryfall's reads it unchanged (the envelope's meta beside them). A file's key carries its time and its run's mark and is never rewritten; a deck made private, deleted or erased leaves every file within 7 days. Through the edge, download_uri is on the edge's host (kept there an hour); without it, a link presigned for an hour. Cached 5 minutes. A type not yet exported is not listed.",
    tag: 'Meta',
    success: { status: 200, data: 'BulkList', bare: true, headers: ['Cache-Control'] },
  } as const satisfies Declared,
  readBulkFile: {
    edge: 'cached',
    cache: LIFETIMES.bulkListing,
    method: 'GET',
    path: '/api/v1/bulk-data/{bulk_id}',
    params: { bulk_id: BulkId },
    objects: 'link',
    grants: [decks(['GetItem'], [BULK_DATA.grant])],
    summary: 'One bulk file, by its type or its id',
    description:
      "The listing's entry of one type (`decks`, `plays`) or id, as Scryfall's GET /bulk-data/{id} and /bulk-data/{type} answer one: the object itself (the envelope's meta beside its fields). A type or id not listed (or not yet exported) is 404 not_found.",
    tag: 'Meta',
    success: { status: 200, data: 'BulkFileOne', bare: true, headers: ['Cache-Control'] },
    errors: ['not_found'],
  } as const satisfies Declared,
});
