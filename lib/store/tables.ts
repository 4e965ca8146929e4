/**
 * The DynamoDB tables and indexes: the one definition that both the local runtime (CreateTable) and
 * the CDK stack read. Key design and access patterns: docs/data-model.md.
 */
import { OWNER_LIST_ATTRIBUTES } from './items/deck.ts';
import { TAGS_INDEX } from './items/plays.ts';
export type KeyAttr = { name: string; type: 'S' | 'N' };

/**
 * Every index by name, per table (a name the compiler checks): the definitions below, the routes'
 * grants (lib/routes/route.ts `query`) and the store's Queries take only these.
 */
export type DecksIndex =
  | 'by_share_slug'
  | 'search_by_date'
  | 'search_by_views'
  | 'search_by_likes'
  | 'search_by_trending'
  | 'tags_by_decks'
  | 'by_owner_order';
export type AccountsIndex = 'keys_by_user';
export type IndexName = DecksIndex | AccountsIndex;
/** Each index's table: every name above once (the compiler holds the record to the union), for the test that the definitions below are these. */
export const INDEX_TABLES = {
  by_share_slug: 'decks',
  search_by_date: 'decks',
  search_by_views: 'decks',
  search_by_likes: 'decks',
  search_by_trending: 'decks',
  tags_by_decks: 'decks',
  by_owner_order: 'decks',
  keys_by_user: 'accounts',
} as const satisfies Record<IndexName, 'decks' | 'accounts'>;
/** An index's name where a string goes (a Query's IndexName): checked against the names above. */
export const indexName = <N extends IndexName>(name: N): N => name;
export type Projection = { type: 'ALL' } | { type: 'KEYS_ONLY' } | { type: 'INCLUDE'; attributes: string[] };
export interface IndexDef {
  indexName: IndexName;
  partitionKey: KeyAttr;
  sortKey?: KeyAttr;
  projection: Projection;
}
export interface TableDef {
  /** Logical name; the physical name comes from `envVar` (default: the logical name). */
  id: 'decks' | 'accounts';
  envVar: 'DECKS_TABLE' | 'ACCOUNTS_TABLE';
  partitionKey: KeyAttr;
  sortKey: KeyAttr;
  globalIndexes: IndexDef[];
  localIndexes: IndexDef[];
  /** The attribute DynamoDB's TTL deletes items by (epoch seconds), if any. */
  timeToLiveAttribute?: string;
  /** Its change stream, if any: what the store-change workers follow (lib/workers/). */
  stream?: 'NEW_AND_OLD_IMAGES' | 'KEYS_ONLY';
}

const S = (name: string): KeyAttr => ({ name, type: 'S' });

export const DECKS: TableDef = {
  id: 'decks',
  envVar: 'DECKS_TABLE',
  // Remembered answers of Idempotency-Key requests (idempotency.ts) expire after 24 hours.
  timeToLiveAttribute: 'expires_at',
  // Folds and purges follow the writes (lib/workers/): new and old images, to see what moved.
  stream: 'NEW_AND_OLD_IMAGES',
  partitionKey: S('pk'),
  sortKey: S('sk'),
  globalIndexes: [
    // Public and unlisted reads by share slug (one item per slug).
    { indexName: 'by_share_slug', partitionKey: S('share_slug'), projection: { type: 'ALL' } },
    // Public search: one index per sort over the search entries (only public decks have entries),
    // partitioned by facet (`all`, `main:<f>`, `ally:<f>`, `tag:<t>`, `card:<id>`); see lib/store/items/search-entry.ts.
    { indexName: 'search_by_date', partitionKey: S('facet'), sortKey: S('by_date'), projection: { type: 'ALL' } },
    { indexName: 'search_by_views', partitionKey: S('facet'), sortKey: S('by_views'), projection: { type: 'ALL' } },
    { indexName: 'search_by_likes', partitionKey: S('facet'), sortKey: S('by_likes'), projection: { type: 'ALL' } },
    // Views of the week (contract §10.3): an entry written before they were kept is in it once reindexed.
    { indexName: 'search_by_trending', partitionKey: S('facet'), sortKey: S('by_trending'), projection: { type: 'ALL' } },
    // The most used tags of the public decks (contract §10.3): each tag's item by its rank (lib/store/items/plays.ts).
    {
      indexName: TAGS_INDEX,
      partitionKey: S('tag_board'),
      sortKey: S('tag_rank'),
      projection: { type: 'INCLUDE', attributes: ['tag', 'decks'] },
    },
  ],
  localIndexes: [
    // The owner's list: sort_order ascending, then updated_at descending, read consistently.
    {
      indexName: 'by_owner_order',
      partitionKey: S('pk'),
      sortKey: S('owner_order'),
      projection: { type: 'INCLUDE', attributes: OWNER_LIST_ATTRIBUTES },
    },
  ],
};

export const ACCOUNTS: TableDef = {
  id: 'accounts',
  envVar: 'ACCOUNTS_TABLE',
  // An erasure's steps follow its marker's changes (lib/workers/erasure.ts). Keys only: the worker reads
  // the marker itself, and no key's hash ever travels in a stream record.
  stream: 'KEYS_ONLY',
  partitionKey: S('pk'),
  sortKey: S('sk'),
  globalIndexes: [
    // An account's keys by when they were made (never their hashes): read newest first by the key list
    // (GET …/keys, deckctl keys list), and whole by an erasure closing them.
    {
      indexName: 'keys_by_user',
      partitionKey: S('key_user_id'),
      sortKey: S('created_at'),
      projection: { type: 'INCLUDE', attributes: ['key_id', 'display_name', 'scopes', 'status'] },
    },
  ],
  localIndexes: [],
};

export const TABLES = [DECKS, ACCOUNTS] as const;

export const tableName = (def: TableDef, env: NodeJS.ProcessEnv = process.env): string => env[def.envVar] || def.id;
