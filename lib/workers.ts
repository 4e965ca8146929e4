/**
 * The functions that no route calls: they follow the store. Each is declared once, like a route (the
 * route table: lib/routes.ts) — its entry, what triggers it, its grants — and the CDK stack and the local
 * runtime both read this: CDK makes the function, its event source mapping and its role; the local
 * runtime polls the same stream with the same filters and enforces the same grants (grants-guard.ts).
 */
import { decks, erasing, type Grant, type Grantee, keysClosing, query, type Route, routeByName, routeKey } from '#routes';
import { TRIM_DUE } from '#store/items/version.ts';

/**
 * A Lambda event filter pattern over a stream record (the subset this project uses: exact values and
 * `prefix`), as the event source mapping's FilterCriteria takes it and the local poller applies it.
 */
export type FilterPattern = { [field: string]: FilterPattern | (string | { prefix: string })[] };

export interface Worker {
  name: string;
  /** The handler module, relative to the project root; it exports `handler`. */
  entry: string;
  /** The table whose change stream triggers it (a stream has at most two: AWS's Streams.Lambda page). */
  table: 'decks' | 'accounts';
  /** The records it is given: those matching any of these patterns. */
  filters: readonly FilterPattern[];
  /** Most records per invocation. */
  batchSize: number;
  /** How long records are gathered before an invocation (the event source mapping's batching window). */
  batchingWindowSeconds?: number;
  grants: Grant[];
  /** Its timeout (s), where it needs more than the routes' 10. */
  timeoutSeconds?: number;
  /**
   * How a batch's failure shows: 'records' — it names its first unfinished record (partial batch
   * response), retried from there, and its backlog is alarmed (its errors never reach Lambda's Errors);
   * 'errors' — it throws, the batch is retried whole, and Lambda's Errors (the functions' alarm) count it.
   */
  failures: 'records' | 'errors';
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
      // A deck was deleted: purge its likes and its versions.
      { eventName: ['REMOVE'], ...keyPrefix('sk', 'DECK#') },
      // A version past the last 100 was kept: drop the oldest (lib/store/versions.ts).
      { eventName: ['INSERT'], dynamodb: { ...keyPrefix('pk', 'VERSION#').dynamodb, NewImage: { trim: { S: [TRIM_DUE] } } } },
    ],
    batchSize: 100,
    failures: 'records',
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
      // Versions: a deleted deck's, and those past the last 100 (read to keep the texts kept ones read; retired).
      decks(['Query', 'GetItem', 'UpdateItem', 'BatchWriteItem'], ['VERSION#*']),
    ],
  },
  {
    // Views recorded from the access log (VIEW_SUBSCRIPTION) reach their buckets a window at a time:
    // one update a bucket a window, whatever the traffic (lib/store/view-log.ts, lib/changes/view-log.ts).
    name: 'viewLog',
    entry: 'functions/view-log.ts',
    table: 'decks',
    filters: [{ eventName: ['INSERT', 'MODIFY'], ...keyPrefix('pk', 'VIEWLOG#') }],
    batchSize: 1000,
    // A view shows in the stored total within 60 s (contract §9.5): the access log's delivery (seconds),
    // then this window, then one invocation. A window costs at most 64 bucket writes, so the longer the
    // window the fewer items a view costs at volume (docs/data-model.md has the measured figures).
    batchingWindowSeconds: 30,
    failures: 'records',
    grants: [decks(['GetItem', 'UpdateItem'], ['VIEWS#*']), decks(['UpdateItem'], ['VIEWLOG#*'])],
  },
  {
    // An account's erasure, a bounded step on each change of its erasure item (lib/account/erasure.ts):
    // on the accounts table's stream, so that its waits hold up no fold of the decks table's changes. A
    // step that fails throws (each is idempotent): the functions' errors alarm sees it, no alarm of its own.
    name: 'accountErasure',
    entry: 'functions/account-erasure.ts',
    table: 'accounts',
    filters: [{ eventName: ['INSERT', 'MODIFY'], ...keyPrefix('pk', 'ERASE#') }],
    batchSize: 10,
    failures: 'errors',
    // A step waits at most SETTLE_MS (15 s), and sweeps at most 25 decks, 100 likes and 100 records.
    timeoutSeconds: 60,
    grants: [
      ...erasing,
      ...keysClosing,
      // The erasure ended: its item, the account's keys and account item deleted.
      { table: 'accounts', actions: ['DeleteItem'], keys: ['ERASE#*', 'USER#*'] },
      { table: 'accounts', actions: ['BatchWriteItem'], keys: ['KEY#*'] },
      // The likes it gave: each taken back with one off its deck's counter (other owners' counters).
      decks(['Query', 'DeleteItem', 'BatchWriteItem'], ['LIKED#*']),
      decks(['DeleteItem', 'BatchWriteItem'], ['LIKE#*']),
      decks(['UpdateItem'], ['COUNT#*']),
      // Its idempotency records.
      decks(['Query', 'BatchWriteItem'], ['IDEMP#*']),
    ],
  },
] as const satisfies readonly Worker[];

export type WorkerName = (typeof WORKERS)[number]['name'];

/**
 * A function fed by the API's access log (a CloudWatch Logs subscription filter on the stage's log group;
 * locally infra/local/access-log.ts): the lines of its routes' answers with its status, in batches.
 */
export interface LogSubscriber extends Grantee {
  entry: string;
  routes: readonly Route[];
  status: number;
}

/** Views are counted from the access log: each shared read answered 200 is one view (contract §9.5). */
export const VIEW_SUBSCRIPTION: LogSubscriber = {
  name: 'countViews',
  entry: 'functions/count-views.ts',
  routes: [routeByName('readSharedDeck'), routeByName('readSharePage')],
  status: 200,
  // The batch's marker, and its views in the logs of the bucket groups (lib/store/view-log.ts).
  grants: [decks(['PutItem'], ['VIEWBATCH#*']), decks(['UpdateItem'], ['VIEWLOG#*'])],
};

/** The subscription's filter pattern, in CloudWatch Logs' syntax for JSON log events. */
export const subscriptionPattern = (s: LogSubscriber): string =>
  `{ (${s.routes.map((r) => `$.routeKey = "${routeKey(r)}"`).join(' || ')}) && $.status = "${s.status}" }`;

/** Whether an access log line (parsed) is one the subscription's pattern matches. */
export function matchesSubscription(line: unknown, s: LogSubscriber): boolean {
  if (typeof line !== 'object' || line === null) return false;
  const { routeKey: key, status } = line as Record<string, unknown>;
  return s.routes.some((r) => routeKey(r) === key) && String(status) === String(s.status);
}

/** Whether an access log line is a read that counts a view. */
export const countsAView = (line: unknown): boolean => matchesSubscription(line, VIEW_SUBSCRIPTION);

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
