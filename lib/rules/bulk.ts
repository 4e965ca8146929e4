/**
 * The bulk files (contract §12.2), pure: each type declared once — what it holds, its media type, the schema of
 * a record (a component of the OpenAPI document) — where its files go (a key that carries its time: written
 * once, never rewritten; kept BULK_KEPT_DAYS by the bucket's lifecycle rule), and a public deck as a line of the
 * `decks` file. The job that writes them is lib/workers/bulk-export.ts; the listing, lib/public/bulk-data.ts.
 */

import { publicPlainOf } from './deck-fields.ts';
import type { KeptArchetype } from './deck-model.ts';
import { parsedCode } from './parsed-codes.ts';

export const BULK_FILES = {
  decks: {
    /** Its id (Scryfall's bulk-data objects have one, the same from one day's file to the next): fixed. */
    id: '5b1c0d6e-2f4a-4c8e-9a57-0d3e6f1b8c21',
    name: 'Public decks',
    description:
      'Every public deck, one JSON object a line (NDJSON), gzip: what search lists of it (counts folded as search folds them), its canonical code, its cards, its guide’s description, its version and its links.',
    extension: 'ndjson',
    contentType: 'application/x-ndjson',
    schema: 'BulkDeck',
  },
  plays: {
    id: 'c7e2a9f4-81d3-4b6a-a0f5-3e9d2b7c4a18',
    name: 'What the library plays',
    description:
      "The library's card figures as GET /api/v1/meta/cards answers them with no filter (every card, in English), and GET /api/v1/meta/factions' pairs and tags: one JSON document, gzip.",
    extension: 'json',
    contentType: 'application/json',
    schema: 'BulkPlays',
  },
} as const;
export type BulkType = keyof typeof BULK_FILES;
export const BULK_TYPES = Object.keys(BULK_FILES) as [BulkType, ...BulkType[]];
/** The type a listing's entry is asked for by (its type, or its id, as Scryfall's /bulk-data/{id|type}), if any. */
export const bulkTypeOf = (asked: string): BulkType | undefined =>
  BULK_TYPES.find((type) => type === asked || BULK_FILES[type].id === asked);

/**
 * The bucket's lifecycle rule's days. S3 expires an object at its creation plus these days rounded up to the next
 * midnight UTC (S3 User Guide, "Lifecycle configuration elements": expiration), so a file written at the daily
 * run's 04:45 UTC expires 6 days 19 h 15 min later — within the 7 days contract §12.2 gives an erased account's decks
 * (the edge keeps a file an hour at most: cache-lifetimes.ts bulkFile) — and the last 7 daily files are kept.
 */
export const BULK_KEPT_DAYS = 6;
/** The days within which a file is gone (contract §12.2): its expiry, rounded to a midnight, and the edge's hour. */
export const BULK_GONE_DAYS = 7;
/** Where the files are: this folder of the bucket, and the same path at the edge (`/bulk/…`). */
export const BULK_FOLDER = 'bulk';

/** A time as a key carries it: `20261127T043000Z`. */
export const stamp = (at: Date): string =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');

/** An export's own mark in its keys: 8 lowercase hex digits, drawn once a run (lib/workers/bulk-export.ts). */
export const RUN_MARK = /^[0-9a-f]{8}$/;

/**
 * A file's key: `bulk/decks/decks-20261127T043000Z-3f9a0c1e.ndjson.gz` — its time and its run's mark, so that two
 * exports in the same second (a retried event, two runs by hand) write two keys; a key is written once, never again.
 */
export const bulkKey = (type: BulkType, at: Date, run: string): string => {
  if (!RUN_MARK.test(run)) throw new Error(`a run's mark is 8 hex digits, not ${JSON.stringify(run)}`);
  return `${BULK_FOLDER}/${type}/${type}-${stamp(at)}-${run}.${BULK_FILES[type].extension}.gz`;
};

/** What a line is made of: a stored public deck's fields (lib/store/items/deck.ts StoredDeck holds them). */
export interface BulkSource {
  id: string;
  share_slug: string;
  name: string;
  main_faction: string;
  ally_faction: string;
  tags: string[];
  guide: { system: string; description: string } | null;
  display: { featured_card_id: string | null; card_back_id: string | null };
  author_name: string;
  views: number;
  likes: number;
  views_7d?: number;
  created_at: string;
  updated_at: string;
  deck_code: string;
  version: number;
  /** Its kept archetype (lib/rules/deck-model.ts KeptArchetype); none kept: none. */
  archetype?: KeptArchetype;
}

/**
 * A public deck as a line of the `decks` file (its schema: BulkDeck), its links made by `links`. A card's
 * `import_id` is its 2-character id in deck codes — the catalogue keys every card a code can hold by it, so it is
 * the card's `card_id` too: a stable id across catalogues, as a code is.
 */
export function deckLine(d: BulkSource, links: { page: string; image: string; preview: string }) {
  return {
    id: d.id,
    share_slug: d.share_slug,
    name: d.name,
    main_faction: d.main_faction,
    ally_faction: d.ally_faction,
    archetype: d.archetype ?? null,
    ...publicPlainOf(d),
    system: d.guide?.system ?? '',
    display: d.display,
    author: { display_name: d.author_name },
    views: d.views,
    likes: d.likes,
    views_7d: d.views_7d ?? 0,
    created_at: d.created_at,
    updated_at: d.updated_at,
    deck_code: d.deck_code,
    cards: parsedCode(d.deck_code).deck.cards.map(({ card_id, count }) => ({ card_id, import_id: card_id, count })),
    description: d.guide?.description ?? '',
    version: d.version,
    links,
  };
}
