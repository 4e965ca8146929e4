/**
 * Part 1: per route, the DynamoDB operations, items read and written, capacity units
 * (ReturnConsumedCapacity; a transaction's write units computed as AWS bills them, which DynamoDB Local
 * does not report) and the on-demand price per million requests from them.
 */

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createAccount, issueKey } from '#auth/accounts.ts';
import { demoCatalogue } from '#catalogue/load.ts';
import { type Deck, encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { deliveryBody, deliveryIdOf } from '#rules/webhooks.ts';
import type { TransactItem } from '#store/client.ts';
import { documentClient } from '#store/client.ts';
import { eraseStep } from '#store/erasure-steps.ts';
import { createEvent, getEvent, listEntries } from '#store/events.ts';
import { getCounts } from '#store/folds.ts';
import { DECK, deckItem, type StoredDeck } from '#store/items/deck.ts';
import { entryKey, type StoredEvent } from '#store/items/event.ts';
import { likeCountKey } from '#store/items/like-count.ts';
import { SEARCH_ENTRY } from '#store/items/search-entry.ts';
import { applyPlays } from '#store/plays.ts';
import { DECKS, type TableDef, tableName } from '#store/tables.ts';
import { putDelivery } from '#store/webhooks.ts';
import { deliver } from '#webhooks/deliver.ts';
import { deckChanges, fanOut } from '#webhooks/fan-out.ts';
import { SETTLE_MS } from '#workers/erasure.ts';
import { openViewDay } from '#workers/open-day.ts';
import { handleStoreChanges } from '#workers/store-changes.ts';
import { startLocalQueue } from '../../infra/local/queue.ts';
import { PRICES } from '../../infra/prices.ts';
import { legalCode, pauperDeck } from '../../test/support/decks.ts';
import { type Call, itemsWritten, operationOf, recordDynamo } from '../../test/support/dynamo-recorder.ts';
import { type Bench, invoke, LIKED_DECK, publicCreateBody, table } from './common.ts';

// US$ per million on-demand read / write request units (us-east-1): infra/prices.ts.
const PRICE = { read: PRICES.dynamodb.readUnitsPerMillion, write: PRICES.dynamodb.writeUnitsPerMillion };

/** What a run of calls cost: operations by name, items read and written, read and write units. */
export interface Tally {
  ops: Map<string, number>;
  read: number;
  written: number;
  rcu: number;
  wcu: number;
}

/** An item's size as DynamoDB counts it (attribute names and values, in bytes). */
export function itemSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(value).replace(/^-|\./g, '').length / 2) + 1;
  if (typeof value === 'boolean' || value === null) return 1;
  if (Array.isArray(value)) return 3 + value.reduce((n: number, v) => n + 1 + itemSize(v), 0);
  if (typeof value === 'object' && value)
    return 3 + Object.entries(value).reduce((n, [k, v]) => n + (v === undefined ? 0 : Buffer.byteLength(k) + 1 + itemSize(v)), 0);
  return 0;
}

/** The indexes of a table that hold an item: those whose key attributes it has. */
export const indexesHolding = (def: TableDef, item: Record<string, unknown>) =>
  [...def.globalIndexes, ...def.localIndexes].filter((ix) => [ix.partitionKey, ix.sortKey].every((k) => !k || item[k.name] !== undefined))
    .length;
/** The indexes an item of the decks table is in (by its key's kind when only the key is known: byKind). */
const indexesOf = (item: Record<string, unknown>) => indexesHolding(DECKS, item);
const byKind = (pk: string) => (SEARCH_ENTRY.owns(pk) ? 3 : DECK.owns(pk) ? 2 : 0);

/**
 * Write units of a transaction as AWS bills them: each item's write (1 unit per KB, in the table and in
 * every index that holds it) twice. Puts are sized whole; an update by what it sets; a delete or a
 * condition check as one KB.
 */
function transactionWriteUnits(items: TransactItem[]): number {
  let units = 0;
  for (const t of items) {
    if (t.Put) {
      const kb = Math.ceil(itemSize(t.Put.Item) / 1024);
      units += kb * (1 + indexesOf(t.Put.Item as Record<string, unknown>));
    } else if (t.Update) {
      const kb = Math.max(1, Math.ceil(itemSize(t.Update.ExpressionAttributeValues ?? {}) / 1024));
      units += kb * (1 + byKind(String(t.Update.Key?.pk)));
    } else if (t.Delete) units += 1 + byKind(String(t.Delete.Key?.pk));
    else units += 1;
  }
  return 2 * units;
}

/** The cost of recorded calls. A call that failed (a condition) is still an operation; it read and wrote nothing counted here. */
export function tallyOf(calls: readonly Call[]): Tally {
  const t: Tally = { ops: new Map(), read: 0, written: 0, rcu: 0, wcu: 0 };
  for (const c of calls) {
    const op = operationOf(c);
    t.ops.set(op, (t.ops.get(op) ?? 0) + 1);
    if (c.failed) continue;
    if (op === 'TransactWriteItems') {
      t.written += itemsWritten(c);
      // DynamoDB Local's figure for a transaction does not grow with its items: estimate as AWS bills it.
      t.wcu += transactionWriteUnits(c.input.TransactItems as TransactItem[]);
    } else if (['PutItem', 'UpdateItem', 'DeleteItem'].includes(op)) {
      t.written += 1;
      t.wcu += c.units ?? 0;
    } else {
      t.read += op === 'GetItem' ? (c.found ? 1 : 0) : op === 'BatchGetItem' ? (c.got ?? 0) : (c.scanned ?? 0);
      t.rcu += c.units ?? 0;
    }
  }
  return t;
}

/** The like's fold is the store-change worker's: it is given the deck's counter's change as the stream carries it. */
export function foldLikes(counts: { likes: number; changes: number }, slug: string) {
  const counter = {
    pk: { S: likeCountKey(slug).pk },
    sk: { S: 'COUNT' },
    likes: { N: String(counts.likes) },
    changes: { N: String(counts.changes) },
  };
  return handleStoreChanges({
    Records: [{ eventName: 'MODIFY', dynamodb: { Keys: { pk: counter.pk, sk: counter.sk }, NewImage: counter, SequenceNumber: '1' } }],
  });
}

export async function costs({ account, apiKey, decksPath, owned, library, shared, history }: Bench) {
  const recorder = recordDynamo({ capacity: true });
  const measured = async <T>(run: () => Promise<T>): Promise<[T, Tally]> => {
    recorder.reset();
    const out = await run();
    return [out, tallyOf(recorder.calls)];
  };
  // Two keys of the owner's: the revocation's warm-up revokes one, the measured request the other.
  const revocable = [
    (await issueKey(account.user_id, ['decks:read'])).key.key_id,
    (await issueKey(account.user_id, ['decks:read'])).key.key_id,
  ];
  // 1. per route ---------------------------------------------------------------------------------------------
  // A url, or the warm-up's and the measured request's when they must differ.
  const codeUrl = urlCodeOf(parseDeckCode(legalCode(demoCatalogue(), 'soviet', 'usa', 12, 7)));
  const cases: [string, string, string | [string, string], string | undefined, unknown][] = [
    ['shared read', 'GET', `/api/v1/decks/${shared.share_slug}`, undefined, undefined],
    ['search (no filter)', 'GET', '/api/v1/decks?limit=20', undefined, undefined],
    ['search (tag)', 'GET', '/api/v1/decks?tag=tag3&limit=20', undefined, undefined],
    ['search (archetype)', 'GET', '/api/v1/decks?archetype=soviet-grey-rifles-thistle&limit=20', undefined, undefined],
    ['search (q)', 'GET', '/api/v1/decks?q=tempo&limit=20', undefined, undefined],
    ['search (trending)', 'GET', '/api/v1/decks?sort=trending&limit=20', undefined, undefined],
    ['feed (Atom, 50 newest)', 'GET', '/api/v1/decks/feed.atom', undefined, undefined],
    ['feed (Atom, tag)', 'GET', '/api/v1/decks/feed.atom?tag=tag3', undefined, undefined],
    [
      'search (card)',
      'GET',
      `/api/v1/decks?card=${parseDeckCode((library[0] as StoredDeck).deck_code).cards[0]?.card_id}&limit=20`,
      undefined,
      undefined,
    ],
    ['owner list (50)', 'GET', `${decksPath}?limit=50`, apiKey, undefined],
    ['owner read', 'GET', `${decksPath}/${shared.id}`, apiKey, undefined],
    ['create (private)', 'POST', decksPath, apiKey, { deck_code: legalCode(demoCatalogue(), 'soviet', 'usa'), guide: { system: 'B' } }],
    ['create (public, 2 tags)', 'POST', decksPath, apiKey, publicCreateBody()],
    ['PATCH (public deck)', 'PATCH', `${decksPath}/${(owned[1] as { id: string }).id}`, apiKey, { sort_order: 2 }],
    ['history (owner, 20 of 25 versions)', 'GET', `${decksPath}/${history.id}/versions?limit=20`, apiKey, undefined],
    ['history (public, 20 of 25 versions)', 'GET', `/api/v1/decks/${history.share_slug}/versions?limit=20`, undefined, undefined],
    ['version read (owner)', 'GET', `${decksPath}/${history.id}/versions/2`, apiKey, undefined],
    // The PATCHed deck is at version 3 (sort_order 3): the warm-up restores version 1 (sort_order 0), the measured request version 2.
    [
      'restore (a version whose fields differ)',
      'POST',
      [1, 2].map((v) => `${decksPath}/${(owned[1] as { id: string }).id}/versions/${v}/restore`) as [string, string],
      apiKey,
      {},
    ],
    // A deck's first like (each request a deck of its own): under ten likes, each like folds into the deck and its entries.
    [
      'like (a deck under 10 likes)',
      'PUT',
      [LIKED_DECK - 1, LIKED_DECK].map((i) => `/api/v1/users/${account.user_id}/likes/${(library[i] as StoredDeck).share_slug}`) as [
        string,
        string,
      ],
      apiKey,
      undefined,
    ],
    [
      'like (a repeat: no change)',
      'PUT',
      `/api/v1/users/${account.user_id}/likes/${(library.at(-1) as StoredDeck).share_slug}`,
      apiKey,
      undefined,
    ],
    [
      'diff (a slug and a code)',
      'GET',
      `/api/v1/decks/diff?from=${shared.share_slug}&to=${encodeURIComponent((library[0] as StoredDeck).deck_code)}`,
      undefined,
      undefined,
    ],
    ['export (a page of 25 decks, and the likes)', 'GET', `/api/v1/users/${account.user_id}/export`, apiKey, undefined],
    ['keys (list)', 'GET', `/api/v1/users/${account.user_id}/keys`, apiKey, undefined],
    ['key create', 'POST', `/api/v1/users/${account.user_id}/keys`, apiKey, { scopes: ['decks:read'], label: 'bench' }],
    ['key revoke', 'DELETE', revocable.map((id) => `/api/v1/users/${account.user_id}/keys/${id}`) as [string, string], apiKey, {}],
    ['share page', 'GET', `/d/${shared.share_slug}`, undefined, undefined],
    ['deck image', 'GET', `/api/v1/decks/${shared.share_slug}/image.png`, undefined, undefined],
    ['card', 'GET', '/api/v1/cards/2B', undefined, undefined],
    // Any deck code (contract §10.2): nothing read or written but the catalogue the function ships.
    ['code facts', 'GET', `/api/v1/codes/${codeUrl}`, undefined, undefined],
    ['code image', 'GET', `/api/v1/codes/${codeUrl}/image.png`, undefined, undefined],
    ['code page', 'GET', `/c/${codeUrl}`, undefined, undefined],
    // What the library plays (contract §10.3): one item, or one item and a Query of the 50 most used tags (the tags' index).
    ['meta cards (soviet, 50)', 'GET', '/api/v1/meta/cards?main_faction=soviet&limit=50', undefined, undefined],
    ['archetypes (all)', 'GET', '/api/v1/archetypes', undefined, undefined],
    ['archetype (one)', 'GET', '/api/v1/archetypes/soviet-grey-rifles-thistle', undefined, undefined],
    ['meta factions', 'GET', '/api/v1/meta/factions', undefined, undefined],
    // The bulk files' listing (contract §12.2): one BatchGetItem of a small item a type (none yet: the export is the bench's --scale part 5).
    ['bulk data (listing)', 'GET', '/api/v1/bulk-data', undefined, undefined],
    // A player's collection (contract §12.3): one item beside the account (every demo card a deck may hold, 3 copies).
    [
      'collection put (every card, 3 copies)',
      'PUT',
      `/api/v1/users/${account.user_id}/collection`,
      apiKey,
      {
        cards: Object.fromEntries(
          demoCatalogue()
            .cards.filter((c) => !c.derived && c.type !== 'headquarters' && c.card_id.length === 2)
            .map((c) => [c.card_id, 3]),
        ),
      },
    ],
    ['collection patch (a copy added)', 'PATCH', `/api/v1/users/${account.user_id}/collection`, apiKey, { add: { '2B': 1 } }],
    ['collection read', 'GET', `/api/v1/users/${account.user_id}/collection`, apiKey, undefined],
    [
      'missing (a saved deck, by slug)',
      'GET',
      `/api/v1/users/${account.user_id}/collection/missing?slug=${shared.share_slug}`,
      apiKey,
      undefined,
    ],
    ['missing (a code)', 'GET', `/api/v1/users/${account.user_id}/collection/missing?code=${codeUrl}`, apiKey, undefined],
    // Decks like this one (contract §12.3): the main nation's figures, then three cards' partitions (at most 100 entries each).
    ['similar (a deck, by slug)', 'GET', `/api/v1/decks/${shared.share_slug}/similar`, undefined, undefined],
    ['similar (a code)', 'GET', `/api/v1/codes/${codeUrl}/similar`, undefined, undefined],
    // What a collection builds, and a format (contract §12.3): worked out from the entries read, on search's budget.
    ['search, buildable_by (missing_max 2)', 'GET', `/api/v1/decks?buildable_by=${account.user_id}&missing_max=2`, apiKey, undefined],
    ['search, format=pauper', 'GET', '/api/v1/decks?format=pauper', undefined, undefined],
    [
      'code in its %% form (308)',
      'GET',
      `/api/v1/codes/${encodeURIComponent(legalCode(demoCatalogue(), 'soviet', 'usa', 12, 7))}`,
      undefined,
      undefined,
    ],
  ];
  const likeFolds = async (slug: string) => (await measured(async () => foldLikes(await getCounts(slug, true), slug)))[1];
  const costs: (string | number)[][] = [];
  const row = (label: string, status: number | string, t: Tally) => [
    label,
    status,
    [...t.ops].map(([k, v]) => `${k}×${v}`).join(' ') || '—',
    t.read,
    t.written,
    t.rcu.toFixed(1),
    t.wcu.toFixed(1),
    `$${(t.rcu * PRICE.read + t.wcu * PRICE.write).toFixed(2)}`,
  ];
  for (const [name, method, urls, key, body] of cases) {
    const [warmUrl, url] = typeof urls === 'string' ? [urls, urls] : urls;
    await invoke(method, warmUrl, key, body); // warm
    const [r, tally] = await measured(() =>
      // The deck's PATCH sets another sort_order than its warm-up (a PATCH that changes nothing writes nothing).
      invoke(method, url, key, name === 'PATCH (public deck)' ? { sort_order: 3 } : body),
    );
    costs.push(row(name, r.statusCode ?? 0, tally));
    if (name.startsWith('like (a deck under'))
      costs.push(row('  its fold (the worker)', '—', await likeFolds(url.split('/').at(-1) as string)));
    // The figures of what the library plays follow a public create: the worker's work for it (the deck read again).
    if (name === 'create (public, 2 tags)') {
      const deckId = (JSON.parse(r.body as string) as { data: { id: string } }).data.id;
      costs.push(row('  its figures (the worker)', '—', (await measured(() => applyPlays([{ userId: account.user_id, deckId }])))[1]));
    }
  }
  costs.push(...(await eventCosts(account.user_id, apiKey, measured, row)));
  costs.push(...(await webhookCosts(measured, row, library[0] as StoredDeck)));
  // A burst: 20 public creates of one pair, handed to the worker as one batch would (their figures summed).
  const burst: { userId: string; deckId: string }[] = [];
  for (let i = 0; i < 20; i++) {
    const made = await invoke('POST', decksPath, apiKey, {
      deck_code: legalCode(demoCatalogue(), 'germany', 'italy', 12, i % 3),
      guide: { system: 'B' },
      visibility: 'public',
      tags: ['burst'],
    });
    burst.push({ userId: account.user_id, deckId: (JSON.parse(made.body as string) as { data: { id: string } }).data.id });
  }
  costs.push(row('figures of a burst of 20 public creates, one batch (the worker)', '—', (await measured(() => applyPlays(burst)))[1]));
  // The views' week: the daily opener's run (a day no count has opened yet: each public deck with a week in
  // search written), and a retry of it.
  const tomorrow = { time: new Date(Date.now() + 86_400_000).toISOString() };
  costs.push(
    row(
      "the views' week: the daily opener (a write a deck with a week, once a day)",
      '—',
      (await measured(() => openViewDay(tomorrow)))[1],
    ),
  );
  costs.push(row('  a retry of it (nothing written)', '—', (await measured(() => openViewDay(tomorrow)))[1]));
  // An erasure: each request an account of its own (the warm-up's, the measured one's), with a private
  // deck, a public one of 2 tags and an unlisted one, and a like given; then every step of its
  // background (the erasure worker's, its waits skipped).
  const leaving = async (n: number) => {
    const gone = await createAccount(`Leaving ${n}`);
    const key = (await issueKey(gone.user_id, ['decks:write', 'account:delete'])).apiKey;
    const made = { deck_code: legalCode(demoCatalogue(), 'soviet', 'usa'), guide: { system: 'B' } };
    for (const more of [{}, { visibility: 'public', tags: ['a', 'b'] }, { visibility: 'unlisted' }])
      await invoke('POST', `/api/v1/users/${gone.user_id}/decks`, key, { ...made, ...more });
    await invoke('PUT', `/api/v1/users/${gone.user_id}/likes/${(library.at(-3) as StoredDeck).share_slug}`, key);
    return { userId: gone.user_id, key };
  };
  const [warm, gone] = [await leaving(1), await leaving(2)];
  await invoke('DELETE', `/api/v1/users/${warm.userId}`, warm.key, { confirm: warm.userId });
  const [erased, erasure] = await measured(() => invoke('DELETE', `/api/v1/users/${gone.userId}`, gone.key, { confirm: gone.userId }));
  costs.push(row('erasure (3 decks: private, public of 2 tags, unlisted)', erased.statusCode ?? 0, erasure));
  const [steps, background] = await measured(async () => {
    const outcomes: string[] = [];
    // Its waits skipped: "now" is past them.
    while (outcomes.length < 20 && !['ended', 'none'].includes(outcomes.at(-1) ?? ''))
      outcomes.push(
        await eraseStep(
          gone.userId,
          SETTLE_MS,
          () => Date.now() + 60_000,
          async () => undefined,
        ),
      );
    return outcomes;
  });
  costs.push(row(`  its background (the worker: ${steps.join(', ')})`, '—', background));
  console.log(
    '\n1. DynamoDB per request (the shared read writes nothing: its view is counted from the access log, see part 4; a call that failed, such as a repeated like, counts as an operation, with no units known)',
  );
  table(['route', 'status', 'operations', 'items read', 'items written', 'read units', 'write units', 'DynamoDB $ / million'], costs);
  recorder.stop();
}

/** Players an event's lists are measured with (an open's top cut is 16; a Swiss of 212 reads the same items per player). */
const EVENT_PLAYERS = 100;

/**
 * Events (contract §13.4): made, read, changed; a player's two pauper decks submitted (one transaction with the event's
 * check and the account's mark), read and withdrawn; the lists of EVENT_PLAYERS entries as the organizer reads them
 * (JSON and CSV) and the page of an event whose lists are public.
 */
async function eventCosts(
  organizer: string,
  key: string,
  measured: <T>(run: () => Promise<T>) => Promise<[T, Tally]>,
  row: (label: string, status: number | string, t: Tally) => (string | number)[],
): Promise<(string | number)[][]> {
  const demo = demoCatalogue();
  const decks = [pauperDeck(demo, 'germany', 'italy'), pauperDeck(demo, 'soviet', 'usa')].map((d) => ({
    deck_code: encodeDeckCode(d as Deck),
  }));
  const body = (deadline: string) => ({
    name: 'Bench Cup',
    format: 'pauper',
    pool_date: '2026-11-01',
    decks_per_player: 2,
    distinct_mains: true,
    deadline,
    lists: 'open',
  });
  const dayAhead = new Date(Date.now() + 86_400_000).toISOString();
  const made = async () => JSON.parse((await invoke('POST', '/api/v1/events', key, body(dayAhead))).body as string).data.event_id as string;
  const [id, other] = [await made(), await made()];
  const players = [];
  for (let i = 0; i < EVENT_PLAYERS; i++) {
    const account = await createAccount(`Bench Player ${i}`);
    const player = { userId: account.user_id, key: (await issueKey(account.user_id, ['events:submit'])).apiKey };
    await invoke('PUT', `/api/v1/events/${id}/entries/${player.userId}`, player.key, { decks });
    players.push(player);
  }
  const own = `/api/v1/events/${id}/entries/${organizer}`;
  // An event past its deadline with the same entries, its lists public: written as the store holds them (no route makes one past).
  const past = {
    ...(await getEvent(id, true)),
    event_id: randomUUID(),
    deadline: new Date(Date.now() - 1_000).toISOString(),
  } as StoredEvent;
  await createEvent(past);
  for (const entry of await listEntries(id))
    await documentClient().send(
      new PutCommand({ TableName: tableName(DECKS), Item: { ...entryKey(past.event_id, entry.user_id), ...entry } }),
    );
  const cases: [string, string, string | [string, string], unknown][] = [
    ['event create', 'POST', '/api/v1/events', body(dayAhead)],
    ['event read', 'GET', `/api/v1/events/${id}`, undefined],
    ['event PATCH (description)', 'PATCH', `/api/v1/events/${id}`, { description: 'Round 1 at 14:00' }],
    ['entry submit (2 pauper decks)', 'PUT', own, { decks }],
    ['entry read', 'GET', own, undefined],
    ['entry withdraw', 'DELETE', [own, `/api/v1/events/${other}/entries/${organizer}`], undefined],
    [`event lists (organizer, ${EVENT_PLAYERS} entries)`, 'GET', `/api/v1/events/${id}/entries`, undefined],
    [`event lists CSV (organizer, ${EVENT_PLAYERS} entries)`, 'GET', `/api/v1/events/${id}/entries.csv`, undefined],
    [`event page (lists public, ${EVENT_PLAYERS} entries)`, 'GET', `/e/${past.event_id}`, undefined],
  ];
  await invoke('PUT', `/api/v1/events/${other}/entries/${organizer}`, key, { decks });
  const out: (string | number)[][] = [];
  for (const [name, method, urls, payload] of cases) {
    const [warmUrl, url] = typeof urls === 'string' ? [urls, urls] : urls;
    await invoke(method, warmUrl, key, payload);
    // The PATCH's warm-up set the description: the measured one sets another (a PATCH that changes nothing writes nothing).
    const body = method === 'PATCH' ? { description: 'Round 2 at 16:00' } : payload;
    const [r, tally] = await measured(() => invoke(method, url, key, body));
    out.push(row(name, r.statusCode ?? 0, tally));
  }
  return out;
}

/** Webhooks an account holds in the bench (the most an account may), and deliveries in one's log. */
const BENCH_HOOKS = 10;
const BENCH_DELIVERIES = 60;

/**
 * Webhooks (contract §13.5): registered, listed (10), read, changed, deleted; a log of 50 of 60 deliveries; a replay; the
 * fan-out of one deck published to 10 subscribers (the store-change worker's part); one attempt delivered (the
 * deliveries worker's part, to a receiver on loopback). The queue is the local stand-in (infra/local/queue.ts).
 */
async function webhookCosts(
  measured: <T>(run: () => Promise<T>) => Promise<[T, Tally]>,
  row: (label: string, status: number | string, t: Tally) => (string | number)[],
  deck: StoredDeck,
): Promise<(string | number)[][]> {
  const queue = await startLocalQueue(join(tmpdir(), `bench-discarded-${process.pid}.jsonl`));
  const receiver = createServer((_req, res) => void res.writeHead(204).end());
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  const env = {
    SQS_ENDPOINT: process.env.SQS_ENDPOINT,
    DELIVERIES_QUEUE_URL: process.env.DELIVERIES_QUEUE_URL,
    WEBHOOK_TARGETS: process.env.WEBHOOK_TARGETS,
  };
  Object.assign(process.env, { SQS_ENDPOINT: queue.endpoint, DELIVERIES_QUEUE_URL: queue.deliveriesUrl, WEBHOOK_TARGETS: 'local' });
  try {
    const account = await createAccount('Bench Hooks');
    const key = (await issueKey(account.user_id, ['webhooks:manage'])).apiKey;
    const path = `/api/v1/users/${account.user_id}/webhooks`;
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const body = { url, events: ['deck.published', 'deck.updated', 'deck.unpublished'], filters: { main_faction: deck.main_faction } };
    const ids: string[] = [];
    for (let i = 0; i < BENCH_HOOKS - 1; i++) ids.push(JSON.parse((await invoke('POST', path, key, body)).body as string).data.webhook_id);
    const out: (string | number)[][] = [];
    const [made, create] = await measured(() => invoke('POST', path, key, body));
    out.push(row('webhook create (3 events)', made.statusCode ?? 0, create));
    const id = JSON.parse(made.body as string).data.webhook_id as string;
    const at = Date.now();
    for (let i = 0; i < BENCH_DELIVERIES; i++)
      await putDelivery({
        delivery_id: deliveryIdOf(at + i, `bench#${i}`),
        webhook_id: id,
        user_id: account.user_id,
        type: 'deck.published',
        body: deliveryBody('deck.published', new Date(at), { deck: { share_slug: deck.share_slug, deck_code: deck.deck_code } }),
        status: 'delivered',
        retries: 0,
        attempts: [{ at: new Date(at).toISOString(), status: 204 }],
        next_try: null,
        created_at: new Date(at + i).toISOString(),
        version: 2,
      });
    const replayed = `${path}/${id}/deliveries/${deliveryIdOf(at, 'bench#0')}/replay`;
    const cases: [string, string, string, unknown][] = [
      [`webhooks list (${BENCH_HOOKS})`, 'GET', path, undefined],
      ['webhook read', 'GET', `${path}/${id}`, undefined],
      ['webhook PATCH (description)', 'PATCH', `${path}/${id}`, { description: 'bench' }],
      [`webhook deliveries (the newest 50 of ${BENCH_DELIVERIES})`, 'GET', `${path}/${id}/deliveries`, undefined],
      ['delivery replay', 'POST', replayed, {}],
    ];
    for (const [name, method, where, payload] of cases) {
      const [r, tally] = await measured(() => invoke(method, where, key, payload));
      out.push(row(name, r.statusCode ?? 0, tally));
    }
    const item = deckItem({ ...deck, visibility: 'public' });
    const changes = deckChanges(undefined, item, `bench-${at}`, new Date(), '');
    const change = changes[0] as NonNullable<(typeof changes)[number]>;
    out.push(
      row(
        `  fan-out: a deck published to ${BENCH_HOOKS} subscribers (the store-change worker)`,
        '—',
        (await measured(() => fanOut(changes)))[1],
      ),
    );
    const [, attempt] = await measured(() =>
      deliver({
        user_id: account.user_id,
        webhook_id: id,
        delivery_id: deliveryIdOf((change.idAt ?? change.at).getTime(), `${change.seed}#${id}`),
        version: 1,
      }),
    );
    out.push(row('  an attempt, delivered (the deliveries worker)', '—', attempt));
    const [gone, deleted] = await measured(() => invoke('DELETE', `${path}/${ids[0]}`, key));
    out.push(row('webhook delete (3 events)', gone.statusCode ?? 0, deleted));
    return out;
  } finally {
    Object.assign(process.env, env);
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
    await queue.stop();
    await new Promise<void>((ok) => receiver.close(() => ok()));
  }
}
