/**
 * The workers: the functions no route calls, declared here beside the routes (the declarations' one home: lib/routes/),
 * their handlers where they run (lib/workers/: each its module, its function functions/<name>-worker.ts). They follow
 * the store's change streams, the API's access log (the subscription) or the clock (the daily ones). Each is declared
 * once, like a route — its handler, what triggers it, its grants — and the CDK stack
 * and the local runtime both read this: CDK makes the function, its event source mapping or subscription
 * and its role; the local runtime polls the same stream with the same filters and enforces the same grants
 * (grants-guard.ts). Key prefixes are their item modules' (lib/store/items/).
 */

import { erasing, keysClosing } from '#routes/grants.ts';
import { PUBLIC_ROUTES } from '#routes/public.ts';
import { accounts, decks, type Grant, type Grantee, handlerOf, query, type Route, routeKey, scan } from '#routes/route.ts';
import { SHARE_ROUTES } from '#routes/share.ts';
import { ACCOUNT } from '#store/items/account.ts';
import { API_KEY } from '#store/items/api-key.ts';
import { BOARD } from '#store/items/board.ts';
import { BULK_DATA } from '#store/items/bulk-data.ts';
import { CATALOGUE, catalogueNowKey } from '#store/items/catalogue.ts';
import { CLUSTERS } from '#store/items/clusters.ts';
import { DECK } from '#store/items/deck.ts';
import { ERASURE } from '#store/items/erasure.ts';
import { ENTERED, EVENT, ORGANIZED } from '#store/items/event.ts';
import type { ItemKind } from '#store/items/kind.ts';
import { LIKE, LIKED } from '#store/items/like.ts';
import { LIKE_COUNT } from '#store/items/like-count.ts';
import { COUNTED_KINDS, PLAYS, PLAYS_OF, TAGS_INDEX } from '#store/items/plays.ts';
import { REMEMBERED_ANSWER } from '#store/items/remembered-answer.ts';
import { SEARCH_ENTRY, SORT_INDEX } from '#store/items/search-entry.ts';
import { TRIM_DUE, VERSION } from '#store/items/version.ts';
import { VIEW_COUNT } from '#store/items/view-count.ts';
import { VIEW_BATCH, VIEW_LOG } from '#store/items/view-log.ts';
import { DELIVERY, HOOKS, WEBHOOK } from '#store/items/webhook.ts';

/**
 * A Lambda event filter pattern over a stream record (the subset this project uses: exact values and
 * `prefix`), as the event source mapping's FilterCriteria takes it and the local poller applies it.
 */
export type FilterPattern = { [field: string]: FilterPattern | (string | { prefix: string })[] };

/** A worker as declared: its handler module follows from its name (functions/<name>-worker.ts: handlerOf). */
const worker = <W extends { name: string }>(declared: W): W & { handler: string } => ({
  ...declared,
  handler: handlerOf(declared.name, '-worker'),
});
/** Workers as declared, each given its handler module. */
const withHandlers = <const T extends readonly { name: string }[]>(declared: T) =>
  declared.map(worker) as unknown as { readonly [K in keyof T]: T[K] & { handler: string } };

export interface Worker {
  name: string;
  /** The handler module, relative to the project root; it exports `handler`. */
  handler: string;
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
   * How old a record that keeps failing may grow, and how many times its batch is retried, before it is given
   * up on (recorded in the queue of discarded changes, alarmed) — so that no record holds its shard's later
   * changes for the stream's 24 hours (Lambda's defaults, -1 and -1: "failed records are retried until the
   * record expires", AWS Lambda developer guide, "Lambda parameters for Amazon DynamoDB event source
   * mappings"). Work that fails for good is given up on at once (batch.ts); these bound what fails for a
   * while (the store unreachable, throttled). Every worker names its first unfinished record (partial batch
   * response: lib/workers/batch.ts).
   */
  maxRecordAgeSeconds: number;
  maxRetries: number;
  /** Batches of one shard run at once (records of one item stay in order): one item's failing work holds up no other's. */
  parallelization?: number;
  /** It sends to the webhook deliveries' queue (route.ts Grantee.deliveries). */
  deliveries?: true;
}

/**
 * The views window (s): the view-log worker's batching window, in which views reach their counts. An answer the edge
 * keeps that names decks lives shorter than it (cache-lifetimes.ts `deckList`), so that a deck turned private, deleted
 * or erased is named by no answer once a window has passed.
 */
export const VIEWS_WINDOW_SECONDS = 30;

/**
 * The bounds of a record that keeps failing, for the workers whose work is folds and figures (repaired at rest:
 * the next like or view folds again, `deckctl meta recount`): an hour, and 500 retries of its batch.
 */
export const GIVE_UP = { maxRecordAgeSeconds: 3600, maxRetries: 500 } as const;

const keyPrefix = (name: 'pk' | 'sk', prefix: string): FilterPattern => ({ dynamodb: { Keys: { [name]: { S: [{ prefix }] } } } });
const itemsOf = (kind: ItemKind) => keyPrefix('pk', kind.prefix);

export const WORKERS = withHandlers([
  {
    name: 'storeChanges',
    table: 'decks',
    filters: [
      // A like counter changed: fold its likes (likes.ts).
      itemsOf(LIKE_COUNT),
      // A deck's view count changed: fold its views when due, forget a gone deck's (view-folds.ts).
      itemsOf(VIEW_COUNT),
      // A deck was made, changed or deleted: what it adds to the figures of what the library plays
      // (lib/store/plays.ts); deleted, purge its likes and its versions.
      keyPrefix('sk', DECK.sk),
      // Another catalogue version in force: the webhooks' catalogue.published (lib/webhooks/fan-out.ts).
      { dynamodb: { Keys: { pk: { S: [catalogueNowKey.pk] }, sk: { S: [catalogueNowKey.sk] } } } },
      // A version past the last 100 was kept: drop the oldest (lib/store/versions.ts).
      { eventName: ['INSERT'], dynamodb: { ...itemsOf(VERSION).dynamodb, NewImage: { trim: { S: [TRIM_DUE] } } } },
    ],
    batchSize: 100,
    ...GIVE_UP,
    deliveries: true,
    grants: [
      query('by_share_slug'),
      // Folds: the deck item (read again when a fold finds it already past), then its entries. The decks whose
      // change moves the figures, read in bulk (lib/store/bulk.ts; dynamodb:LeadingKeys holds BatchGetItem to these
      // prefixes as it does GetItem: DynamoDB developer guide, "Using IAM policy conditions for fine-grained access
      // control", whose first example grants GetItem and BatchGetItem under it).
      decks(['GetItem', 'BatchGetItem', 'UpdateItem'], [DECK.grant]),
      decks(['UpdateItem'], [SEARCH_ENTRY.grant]),
      // A deleted deck's view count, brought back by a later batch, deleted again; a count marked with its public
      // deck's id and factions, or its marks taken off (lib/store/boards.ts).
      decks(['DeleteItem', 'UpdateItem', 'BatchGetItem'], [VIEW_COUNT.grant]),
      // The boards a deck made public, private, moved or deleted is offered to or taken off.
      decks(['BatchGetItem', 'PutItem'], [BOARD.grant]),
      // A deleted deck's likes, under the deck and under each account.
      decks(['Query'], [LIKE.grant]),
      decks(['BatchWriteItem'], [LIKE.grant, LIKED.grant]),
      // Versions: a deleted deck's, and those past the last 100 (read to keep the texts kept ones read; retired).
      decks(['Query', 'GetItem', 'UpdateItem', 'BatchWriteItem'], [VERSION.grant]),
      // What the library plays: each changed deck's contribution, read (in bulk) and written, and the figures it moves.
      decks(['BatchGetItem', 'PutItem', 'DeleteItem'], [PLAYS_OF.grant]),
      decks(['UpdateItem'], [PLAYS.grant]),
      // A deck published, changed while public or unpublished: the event's subscribers read, a delivery written for each
      // (once) and sent to the deliveries' queue (lib/webhooks/fan-out.ts).
      decks(['Query'], [HOOKS.grant]),
      decks(['PutItem'], [DELIVERY.grant]),
      // Each counted figure kept an item a key (a tag's, a code's: COUNTED_STORE), read (in bulk) and brought to its decks (deleted at none).
      decks(
        ['BatchGetItem', 'PutItem', 'DeleteItem'],
        COUNTED_KINDS.map((kind) => kind.grant),
      ),
    ],
  },
  {
    // Views recorded from the access log (VIEW_SUBSCRIPTION) reach their decks' counts a window at a time:
    // one read and one update a deck a window, whatever its views (lib/store/view-log.ts, view-log.ts).
    name: 'viewLog',
    table: 'decks',
    filters: [{ eventName: ['INSERT', 'MODIFY'], ...itemsOf(VIEW_LOG) }],
    batchSize: 1000,
    // A view shows in the stored total within 60 s (contract §9.5): the access log's delivery (seconds),
    // then this window, then one invocation. A window costs one write a deck it saw, so the longer the
    // window the fewer items a view costs at volume (docs/data-model.md has the measured figures).
    batchingWindowSeconds: VIEWS_WINDOW_SECONDS,
    ...GIVE_UP,
    grants: [
      // Each count read and written; those offered to the boards read again in bulk (lib/store/boards.ts).
      decks(['GetItem', 'BatchGetItem', 'UpdateItem'], [VIEW_COUNT.grant]),
      decks(['UpdateItem'], [VIEW_LOG.grant]),
      // The boards its window's decks are offered to (lib/store/boards.ts), read in bulk and written; built where
      // none are yet in a small library: every public deck's `all` entry by date and its count marked.
      decks(['GetItem', 'BatchGetItem', 'PutItem'], [BOARD.grant]),
      query(SORT_INDEX.date.index),
      // A count marked only while its deck's `all` entry stands (a transaction's condition check).
      decks(['ConditionCheckItem'], [SEARCH_ENTRY.grant]),
    ],
  },
  {
    // An account's erasure, a bounded step on each change of its erasure item (erasure.ts):
    // on the accounts table's stream, so that its waits hold up no fold of the decks table's changes. A
    // step that fails names its record, retried from there (each step is idempotent); erasures of other
    // accounts go on beside it (two batches of a shard at once). One failing for an hour is given up on:
    // the discarded-changes queue's alarm shows it (no alarm of its own: the free tier's ten are in use),
    // and its erasure item, still there, resumes it when changed (docs/operations.md).
    name: 'accountErasure',
    table: 'accounts',
    filters: [{ eventName: ['INSERT', 'MODIFY'], ...itemsOf(ERASURE) }],
    batchSize: 10,
    maxRecordAgeSeconds: 3600,
    // Its steps wait (SETTLE_MS) and are few: the record's age is its bound.
    maxRetries: 10_000,
    // Two batches of a shard at once: another account's erasure goes on while one step waits. With the decks table's
    // two mappings (one at a time a shard each), 4 executions a shard at most — a new account's quota is 10, and the
    // API keeps at least half (contract §12.4; at 10 this mapping alone could take all 10).
    parallelization: 2,
    // A step waits at most SETTLE_MS (15 s), and sweeps at most 25 decks, 100 likes, 100 records and 100 entries in events.
    timeoutSeconds: 60,
    grants: [
      ...erasing,
      ...keysClosing,
      // The erasure ended: its item, the account's keys and account item deleted.
      accounts(['DeleteItem'], [ERASURE.grant, ACCOUNT.grant]),
      accounts(['BatchWriteItem'], [API_KEY.grant]),
      // The likes it gave: each taken back with one off its deck's counter (other owners' counters).
      decks(['Query', 'DeleteItem', 'BatchWriteItem'], [LIKED.grant]),
      decks(['DeleteItem', 'BatchWriteItem'], [LIKE.grant]),
      decks(['UpdateItem'], [LIKE_COUNT.grant]),
      // Its remembered answers.
      decks(['Query', 'BatchWriteItem'], [REMEMBERED_ANSWER.grant]),
      // Its entries in events, each with its mark; the events it organizes, with their entries and marks.
      decks(['Query', 'DeleteItem'], [ENTERED.grant, ORGANIZED.grant, EVENT.grant]),
      // An organizer's event closed before its entries are swept.
      decks(['UpdateItem'], [EVENT.grant]),
      // Its webhooks: each disabled (its subscribers deleted), its deliveries deleted, then itself with one off its
      // count (transactions), then the count.
      decks(['Query', 'PutItem', 'DeleteItem', 'UpdateItem'], [WEBHOOK.grant]),
      decks(['DeleteItem'], [HOOKS.grant]),
      decks(['Query', 'BatchWriteItem'], [DELIVERY.grant]),
    ],
  },
] as const satisfies readonly Omit<Worker, 'handler'>[]).map(worker);

/**
 * A function fed by the API's access log (a CloudWatch Logs subscription filter on the stage's log group;
 * locally infra/local/access-log.ts): the lines of its routes' answers with its status, in batches.
 */
export interface LogSubscriber extends Grantee {
  handler: string;
  routes: readonly Route[];
  status: number;
}

/** Views are counted from the access log: each shared read answered 200 is one view (contract §9.5). */
export const VIEW_SUBSCRIPTION: LogSubscriber = worker<Omit<LogSubscriber, 'handler'>>({
  name: 'countViews',
  routes: [PUBLIC_ROUTES.readSharedDeck, SHARE_ROUTES.readSharePage],
  status: 200,
  // The batch's marker, and its views in the logs of the deck groups (lib/store/view-log.ts).
  grants: [decks(['PutItem'], [VIEW_BATCH.grant]), decks(['UpdateItem'], [VIEW_LOG.grant])],
});

/** A function fed by a queue (an SQS event source mapping; locally infra/local/queue.ts): its messages in batches. */
export interface QueueWorker extends Grantee {
  handler: string;
  /** What its function does (its description). */
  serves: string;
  /** Most messages an invocation, and how long they are gathered (over 10, SQS asks for a window of at least a second). */
  batchSize: number;
  batchingWindowSeconds: number;
  /** Most invocations at once (the mapping's maximum concurrency: 2 to 1,000). */
  maxConcurrency: number;
  timeoutSeconds: number;
}

/**
 * Webhook deliveries (contract §13.5; lib/webhooks/deliver.ts): each message an attempt, a batch's attempts at once, at
 * most two invocations at once (a new account's Lambda quota is 10: the API keeps the most). A batch ends with its
 * slowest attempt (15 s at most): batches of up to 100, so that targets that hang hold up at most 200 attempts in flight
 * for 15 s, not every other account's (a hostile review's 20 hanging targets delayed an honest one by a minute at 10 a
 * batch). An attempt waits 15 s at most for its answer: given 60 s. Its grants: the delivery read and its attempt written; the endpoint read, and changed (its
 * subscribers with it) when an attempt disables it or it fails; the queue, for the next try. A Discord target's message
 * is the /deck embed: the catalogue.
 */
export const WEBHOOK_DELIVERIES: QueueWorker = worker<Omit<QueueWorker, 'handler'>>({
  name: 'deliverWebhooks',
  serves: 'webhook deliveries',
  batchSize: 100,
  batchingWindowSeconds: 1,
  maxConcurrency: 2,
  timeoutSeconds: 60,
  catalogue: true,
  deliveries: true,
  grants: [
    decks(['GetItem', 'PutItem'], [DELIVERY.grant, WEBHOOK.grant]),
    decks(['DeleteItem'], [HOOKS.grant]),
    // A deck event's deck still public (its `all` search entry), before its data is sent.
    decks(['GetItem'], [SEARCH_ENTRY.grant]),
  ],
});

/** A function run once a day at a time of day, UTC (an EventBridge schedule; locally a timer, and once at start). */
export interface DailyWorker extends Grantee {
  handler: string;
  /** What its function does (its description). */
  serves: string;
  at: { hour: number; minute: number };
  timeoutSeconds?: number;
}

/**
 * Views of the week (contract §10.3): at midnight, UTC, the new day is opened on the count of every public deck
 * with a week in search, so that the day 8 before leaves its week and search's trending order follows (open-day.ts).
 * Its walk is as long as those decks are many: given 15 minutes.
 */
export const DAY_OPENER: DailyWorker = worker<Omit<DailyWorker, 'handler'>>({
  name: 'openViewDay',
  serves: 'the day slots of the views of the week',
  at: { hour: 0, minute: 0 },
  timeoutSeconds: 900,
  grants: [
    query(SORT_INDEX.trending.index),
    // The counts it opens; those of the decks on the trending boards read in bulk, and the boards rewritten.
    decks(['UpdateItem', 'BatchGetItem'], [VIEW_COUNT.grant]),
    decks(['BatchGetItem', 'PutItem'], [BOARD.grant]),
  ],
});

/**
 * The catalogue kept current (contract §11.5; catalogue-refresh.ts): daily, the official catalogue fetched and,
 * when it differs and passes the service's validation, published for every function of the catalogue. The fetch
 * is every page in every language (about 75 pages a pass, a pass per language the endpoint does not title at
 * once), each page retried with backoff: given 15 minutes. Off on `npm start` unless CATALOGUE_PUBLISHED=on.
 */
export const CATALOGUE_REFRESH: DailyWorker = worker<Omit<DailyWorker, 'handler'>>({
  name: 'refreshCatalogue',
  serves: 'the catalogue kept current',
  at: { hour: 4, minute: 30 },
  timeoutSeconds: 900,
  // It compares with the catalogue the functions ship when none is published yet, and reads the published one's pointer.
  catalogue: true,
  grants: [decks(['PutItem'], [CATALOGUE.grant])],
});

/**
 * The bulk files (contract §12.2; bulk-export.ts): daily, after the catalogue's refresh, every public deck and the
 * library's figures written to the bucket and listed. Streamed; its time grows with the library (the bench measures
 * it): given 15 minutes.
 */
export const BULK_EXPORT: DailyWorker = worker<Omit<DailyWorker, 'handler'>>({
  name: 'exportBulk',
  serves: 'the bulk files of every public deck and the library’s figures',
  at: { hour: 4, minute: 45 },
  timeoutSeconds: 900,
  catalogue: true,
  objects: 'write',
  grants: [
    scan('by_share_slug'),
    // Each deck the index lists read again from the table (the index lags it: a deck made private a moment ago).
    decks(['BatchGetItem'], [DECK.grant]),
    // Its files listed (a conditional put: a newer file listed stays).
    decks(['PutItem'], [BULK_DATA.grant]),
    // The library's figures, as meta/cards and meta/factions read them.
    decks(['GetItem'], [PLAYS.grant]),
    query(TAGS_INDEX),
  ],
});

/**
 * Cluster archetypes (contract §13.3; lib/workers/clusters.ts): daily, after the catalogue's refresh, the public decks no
 * archetype rule takes clustered by their cards, each given its cluster's archetype (or none) with its search entries.
 * Its walk is as long as the library: given 15 minutes.
 */
export const CLUSTER_ARCHETYPES: DailyWorker = worker<Omit<DailyWorker, 'handler'>>({
  name: 'clusterArchetypes',
  serves: 'cluster archetypes for the public decks no rule takes',
  at: { hour: 5, minute: 15 },
  timeoutSeconds: 900,
  catalogue: true,
  grants: [
    scan('by_share_slug'),
    // Each deck to reclassify read again, then its archetype and its entries written in one transaction (store/decks.ts).
    decks(['GetItem', 'UpdateItem'], [DECK.grant]),
    decks(['PutItem', 'DeleteItem'], [SEARCH_ENTRY.grant]),
    // The run's clusters and the archetypes' weeks, one item read and written whole (lib/store/clusters.ts); the week's
    // figures from the factions' item (lib/store/plays.ts readCounts).
    decks(['GetItem', 'PutItem'], [CLUSTERS.grant]),
    decks(['GetItem'], [PLAYS.grant]),
  ],
});

/** The functions run once a day. */
export const DAILY_WORKERS: readonly DailyWorker[] = [DAY_OPENER, CATALOGUE_REFRESH, BULK_EXPORT, CLUSTER_ARCHETYPES];

/** A stream worker by its name. */
export const workerNamed = (name: (typeof WORKERS)[number]['name']): Worker => WORKERS.find((w) => w.name === name) as Worker;

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
