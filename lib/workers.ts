/**
 * The functions that no route calls: they follow the store. Each is declared once, like a route (the
 * route table: lib/routes.ts) — its entry, what triggers it, its grants — and the CDK stack and the local
 * runtime both read this: CDK makes the function, its event source mapping and its role; the local
 * runtime polls the same stream with the same filters and enforces the same grants (grants-guard.ts).
 */
import { decks, type Grant, query } from '#routes';

/**
 * A Lambda event filter pattern over a stream record (the subset this project uses: exact values and
 * `prefix`), as the event source mapping's FilterCriteria takes it and the local poller applies it.
 */
export type FilterPattern = { [field: string]: FilterPattern | (string | { prefix: string })[] };

export interface Worker {
  name: string;
  /** The handler module, relative to the project root; it exports `handler`. */
  entry: string;
  /** The table whose change stream (new and old images) triggers it. */
  table: 'decks';
  /** The records it is given: those matching any of these patterns. */
  filters: readonly FilterPattern[];
  /** Most records per invocation. */
  batchSize: number;
  grants: Grant[];
}

const keyPrefix = (name: 'pk' | 'sk', prefix: string): FilterPattern => ({ dynamodb: { Keys: { [name]: { S: [{ prefix }] } } } });

export const WORKERS = [
  {
    name: 'storeChanges',
    entry: 'functions/store-changes.ts',
    table: 'decks',
    filters: [
      // A like counter changed: fold its likes (lib/changes/likes.ts).
      keyPrefix('pk', 'COUNT#'),
      // A view bucket changed: fold the views that moved, forget a gone deck's (lib/changes/views.ts).
      keyPrefix('pk', 'VIEWS#'),
      // A deck was deleted: purge its likes.
      { eventName: ['REMOVE'], ...keyPrefix('sk', 'DECK#') },
    ],
    batchSize: 100,
    grants: [
      query('by_share_slug'),
      // Folds: the deck item (read again when a fold finds it already past), then its entries.
      decks(['GetItem', 'UpdateItem'], ['USER#*']),
      decks(['UpdateItem'], ['SEARCH#*']),
      // A deleted deck's view count, brought back by a later batch, taken out of its bucket.
      decks(['UpdateItem'], ['VIEWS#*']),
      // A deleted deck's likes, under the deck and under each account.
      decks(['Query'], ['LIKE#*']),
      decks(['BatchWriteItem'], ['LIKE#*', 'LIKED#*']),
    ],
  },
] as const satisfies readonly Worker[];

export type WorkerName = (typeof WORKERS)[number]['name'];

/** Whether a stream record (as the event source mapping sees it, JSON) matches a filter pattern. */
export function matchesFilter(record: unknown, pattern: FilterPattern): boolean {
  if (typeof record !== 'object' || record === null) return false;
  for (const [field, want] of Object.entries(pattern)) {
    if (!Object.hasOwn(record, field)) return false;
    const value = (record as Record<string, unknown>)[field];
    if (Array.isArray(want)) {
      const ok = want.some((w) => (typeof w === 'string' ? value === w : typeof value === 'string' && value.startsWith(w.prefix)));
      if (!ok) return false;
    } else if (!matchesFilter(value, want)) return false;
  }
  return true;
}
