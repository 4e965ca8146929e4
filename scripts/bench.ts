/**
 * `npm run bench` (`-- --quick` for a short run): what a request costs, measured side by side in one
 * run on a DynamoDB Local of its own (this machine is shared and noisy: compare the ratios, not the
 * absolute times). Prints one table per part:
 *   1. per route: DynamoDB operations, items read and written, capacity units (ReturnConsumedCapacity;
 *      a transaction's write units doubled, as AWS bills them and DynamoDB Local does not) and the
 *      on-demand price per million requests from them;
 *   2. per route: the in-process handler's p50/p99 and CPU against the raw SDK calls of the same
 *      operations, interleaved;
 *   3. per function bundle, built with the CDK's esbuild settings: size, and init + first invoke
 *      against a bundle that only does one lib-dynamodb GetItem, a hello-world, and a bundle that
 *      makes only the route's own DynamoDB calls (recorded from the route, replayed alone);
 *   4. the views workload: 10,000 shared reads over 1,000 public decks (Zipf), items written per view
 *      and views counted against views served.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, CloudWatchLogsDecodedData, Context } from 'aws-lambda';
import { build } from 'esbuild';
import { createAccount, issueKey } from '#auth/accounts.ts';
import { SCOPES } from '#auth/keys.ts';
import { demoCatalogue, loadCatalogueFile } from '#catalogue/load.ts';
import { countViews, encodeLogs } from '#changes/count-views.ts';
import { handleChanges } from '#changes/worker.ts';
import { logger } from '#http/logger.ts';
import { ROUTES, type Route } from '#routes';
import { compileCatalogue } from '#rules/catalogue.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { defaultArchive } from '#rules/deck-model.ts';
import { deckName, FACTION_IDS, type FactionId, MAIN_FACTION_IDS } from '#rules/factions.ts';
import { documentClient, dynamoClient, LOCAL_CREDENTIALS, LOCAL_REGION, type TransactItem } from '#store/client.ts';
import { getCounts } from '#store/counters.ts';
import { createDeck } from '#store/decks.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { SEARCH_PROJECTION } from '#store/items/search-entry.ts';
import { bucketKey } from '#store/items/view-bucket.ts';
import { ACCOUNTS, DECKS, tableName } from '#store/tables.ts';
import { VIEW_SUBSCRIPTION, WORKERS } from '#workers';
import { accessLine } from '../infra/access-log-fields.ts';
import { BUNDLE } from '../infra/bundling.ts';
import { ensureTables, startDynamoLocal } from '../infra/local/dynamodb.ts';
import { lambdaContext, matchRoute, toEvent } from '../infra/local/events.ts';
import { startStreamPoller } from '../infra/local/streams.ts';
import { PRICES } from '../infra/prices.ts';
import { deckableCards, legalCode } from '../test/support/decks.ts';
import { freePort } from '../test/support/runtime.ts';
import { hasRealCatalogue, REAL_CATALOGUE_FILE } from '../test/support/shared.ts';

const QUICK = process.argv.includes('--quick');
const ROOT = resolve(import.meta.dirname, '..');
// US$ per million on-demand read / write request units (us-east-1): infra/prices.ts.
const PRICE = { read: PRICES.dynamodb.readUnitsPerMillion, write: PRICES.dynamodb.writeUnitsPerMillion };
type Handler = (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const table = (head: string[], rows: (string | number)[][]) => {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r: (string | number)[]) => r.map((c, i) => String(c).padEnd(widths[i] as number)).join('  ');
  console.log([line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n'));
};
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] as number;

// --- capacity and items of every DynamoDB call ---------------------------------------------------------------
interface Tally {
  ops: Map<string, number>;
  read: number;
  written: number;
  rcu: number;
  wcu: number;
}
const fresh = (): Tally => ({ ops: new Map(), read: 0, written: 0, rcu: 0, wcu: 0 });
let tally = fresh();
/** An item's size as DynamoDB counts it (attribute names and values, in bytes). */
function itemSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(value).replace(/^-|\./g, '').length / 2) + 1;
  if (typeof value === 'boolean' || value === null) return 1;
  if (Array.isArray(value)) return 3 + value.reduce((n: number, v) => n + 1 + itemSize(v), 0);
  if (typeof value === 'object' && value)
    return 3 + Object.entries(value).reduce((n, [k, v]) => n + (v === undefined ? 0 : Buffer.byteLength(k) + 1 + itemSize(v)), 0);
  return 0;
}

const DECK_INDEXES = [...DECKS.globalIndexes, ...DECKS.localIndexes];
/** The indexes an item of the decks table is in: those whose key attributes it has (by its key's kind when only the key is known). */
const indexesOf = (item: Record<string, unknown>) =>
  DECK_INDEXES.filter((ix) => [ix.partitionKey, ix.sortKey].every((k) => !k || item[k.name] !== undefined)).length;
const byKind = (pk: string) => (pk.startsWith('SEARCH#') ? 3 : pk.startsWith('USER#') ? 2 : 0);

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

function instrument() {
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown> & { TransactItems?: unknown[] };
      input.ReturnConsumedCapacity = 'TOTAL';
      const command = ((context as { commandName?: string }).commandName ?? '?').replace(/Command$/, '');
      // A call that failed (a condition) is still an operation; it read and wrote nothing counted here.
      const result = await next(args).catch((error: unknown) => {
        tally.ops.set(command, (tally.ops.get(command) ?? 0) + 1);
        throw error;
      });
      const out = (result as { output?: Record<string, unknown> }).output ?? {};
      const consumed = ([] as { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number }[]).concat(
        (out.ConsumedCapacity as never) ?? [],
      );
      const units = consumed.reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
      tally.ops.set(command, (tally.ops.get(command) ?? 0) + 1);
      if (command === 'TransactWriteItems') {
        // A condition check writes nothing (its units are the transaction's, below).
        tally.written += (input.TransactItems as object[] | undefined)?.filter((t) => !('ConditionCheck' in t)).length ?? 0;
        // DynamoDB Local's figure for a transaction does not grow with its items: estimate as AWS bills it.
        tally.wcu += transactionWriteUnits(input.TransactItems as TransactItem[]);
      } else if (['PutItem', 'UpdateItem', 'DeleteItem'].includes(command)) {
        tally.written += 1;
        tally.wcu += units;
      } else {
        tally.read += command === 'GetItem' ? (out.Item ? 1 : 0) : Number(out.ScannedCount ?? 0);
        tally.rcu += units;
      }
      return result;
    },
    { step: 'initialize', name: 'bench-tally' },
  );
}

// --- a route's calls, recorded and replayed alone ----------------------------------------------------------
interface Recorded {
  command: string;
  input: Record<string, unknown>;
  start: number;
  end: number;
}
let recording: Recorded[] | undefined;
/** While `recording` is set, keeps each DynamoDB call's command, input and timing. */
function recorder() {
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (!recording) return next(args);
      const command = ((context as { commandName?: string }).commandName ?? '?').replace(/Command$/, '');
      const call: Recorded = { command, input: structuredClone(args.input as Record<string, unknown>), start: performance.now(), end: 0 };
      recording.push(call);
      try {
        return await next(args);
      } finally {
        call.end = performance.now();
      }
    },
    { step: 'initialize', name: 'bench-record' },
  );
}
/** The DynamoDB calls a route's request makes (in this process, warm), with their inputs and overlaps. */
async function recordCalls(route: Route, event: APIGatewayProxyEventV2): Promise<Recorded[]> {
  const { handler } = (await import(resolve(ROOT, route.entry))) as { handler: Handler };
  recording = [];
  try {
    const r = await handler(event, lambdaContext(route));
    if ((r.statusCode ?? 500) >= 300 && recording.length) throw new Error(`recording ${route.name}: it answered ${r.statusCode}`);
    return recording;
  } finally {
    recording = undefined;
  }
}
const LIB_COMMANDS: Partial<Record<string, string>> = {
  GetItem: 'GetCommand',
  Query: 'QueryCommand',
  Scan: 'ScanCommand',
  PutItem: 'PutCommand',
  UpdateItem: 'UpdateCommand',
  DeleteItem: 'DeleteCommand',
  BatchGetItem: 'BatchGetCommand',
  BatchWriteItem: 'BatchWriteCommand',
  TransactGetItems: 'TransactGetCommand',
  TransactWriteItems: 'TransactWriteCommand',
};
/** A write without its condition (which held for the route, and would not hold again), and the placeholders only it used. */
function unconditioned(write: Record<string, unknown>): Record<string, unknown> {
  const { ConditionExpression: _condition, ExpressionAttributeNames: names, ExpressionAttributeValues: values, ...rest } = write;
  const text = String(rest.UpdateExpression ?? '');
  const used = (m: unknown) => {
    const kept = Object.entries((m ?? {}) as Record<string, unknown>).filter(([k]) =>
      new RegExp(`${k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_])`).test(text),
    );
    return kept.length ? Object.fromEntries(kept) : undefined;
  };
  const [n, v] = [used(names), used(values)];
  return { ...rest, ...(n ? { ExpressionAttributeNames: n } : {}), ...(v ? { ExpressionAttributeValues: v } : {}) };
}
function replayInput({ command, input }: Recorded): Record<string, unknown> {
  // A replay is a new transaction each round: not the recorded one's client token.
  const { ReturnConsumedCapacity: _units, ClientRequestToken: _token, ...rest } = input;
  if (command === 'TransactWriteItems')
    return {
      ...rest,
      TransactItems: (rest.TransactItems as Record<string, Record<string, unknown>>[])
        .filter((t) => !t.ConditionCheck)
        .map((t) => Object.fromEntries(Object.entries(t).map(([op, write]) => [op, unconditioned(write)]))),
    };
  return ['PutItem', 'UpdateItem', 'DeleteItem'].includes(command) ? unconditioned(rest) : rest;
}
/** A bundle's source that makes the recorded calls, in order, those that overlapped side by side. */
function replaySource(calls: Recorded[]): string {
  const steps: Recorded[][] = [];
  let end = Number.NEGATIVE_INFINITY;
  for (const c of [...calls].sort((a, b) => a.start - b.start)) {
    if (c.start < end) {
      steps.at(-1)?.push(c);
      end = Math.max(end, c.end);
    } else {
      steps.push([c]);
      end = c.end;
    }
  }
  const command = (c: Recorded) => {
    const name = LIB_COMMANDS[c.command];
    if (!name) throw new Error(`no replay for ${c.command}`);
    return name;
  };
  const send = (c: Recorded) => `doc.send(new ${command(c)}(${JSON.stringify(replayInput(c))}))`;
  const body = steps.map((step) =>
    step.length === 1 ? `await ${send(step[0] as Recorded)};` : `await Promise.all([${step.map(send).join(', ')}]);`,
  );
  return bareSource([...new Set(calls.map(command))], `${body.join(' ')} return { statusCode: 200, body: '' };`);
}
/** A bundle's source with no handler of ours: a plain document client (the SDK's defaults), the given lib-dynamodb commands, and `body` as the handler. */
const bareSource = (commands: string[], body: string) => `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ${commands.join(', ')} } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));
export const handler = async () => { ${body} };
`;

// --- the store --------------------------------------------------------------------------------------------------
function publicDeck(i: number, cat = demoCatalogue()): StoredDeck {
  const main = MAIN_FACTION_IDS[i % MAIN_FACTION_IDS.length] as FactionId;
  const ally = FACTION_IDS.filter((f) => f !== main)[Math.floor(i / 5) % 9] as FactionId;
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  return {
    id: randomUUID(),
    user_id: randomUUID(),
    share_slug: `b${randomUUID().replaceAll('-', '').slice(0, 11)}`,
    author_name: `Author ${i % 50}`,
    name: deckName(main, ally),
    main_faction: main,
    ally_faction: ally,
    deck_code: legalCode(cat, main, ally, 12, i),
    tags: [`tag${i % 20}`],
    visibility: 'public',
    sort_order: 0,
    guide: { system: ['Blitz', 'Control', 'Tempo'][i % 3] as string, description: '', core_cards: [], reserve_recommendations: [] },
    archive: defaultArchive(),
    display: { featured_card_id: null, card_back_id: null },
    views: 0,
    likes: 0,
    created_at: at,
    updated_at: at,
    version: 1,
  };
}

/** A route's handler and a maker of its event and context (fresh per call: a request id of their own). */
async function prepared(method: string, url: string, key?: string, body?: unknown) {
  const { route, params } = matchRoute(method, new URL(url, 'http://x').pathname);
  const { handler } = (await import(resolve(ROOT, route.entry))) as { handler: Handler };
  const headers: Record<string, string> = {
    ...(key ? { authorization: `Bearer ${key}` } : {}),
    ...(body ? { 'content-type': 'application/json' } : {}),
  };
  return {
    event: (): [APIGatewayProxyEventV2, Context] => [
      toEvent({ method, url, headers, body: Buffer.from(body ? JSON.stringify(body) : '') }, route, params),
      lambdaContext(route),
    ],
    run: ([event, context]: [APIGatewayProxyEventV2, Context]) => handler(event, context),
  };
}

interface ColdCase {
  file: string;
  route?: Route;
  env?: Record<string, string>;
}
interface ColdStart {
  init: number;
  total: number;
  /** The first request's status. */
  status?: number;
}
type Cold = ColdStart & { runs: ColdStart[] };
/** Rounds of cold starts per bundle (each a new process). */
const COLD_ROUNDS = QUICK ? 5 : 21;

async function invoke(method: string, url: string, key?: string, body?: unknown) {
  const handle = await prepared(method, url, key, body);
  return handle.run(handle.event());
}

async function main() {
  const dynamo = await startDynamoLocal(await freePort());
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  logger.setLogLevel('ERROR');
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  const setup = dynamoClient();
  await ensureTables(setup);
  setup.destroy();
  instrument();
  const work = mkdtempSync(join(tmpdir(), 'deck-library-bench-'));
  try {
    const account = await createAccount('Bench Owner');
    const { apiKey } = await issueKey(account.user_id, [...SCOPES]);
    const decksPath = `/api/v1/users/${account.user_id}/decks`;
    const owned: { id: string; share_slug: string }[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await invoke('POST', decksPath, apiKey, {
        deck_code: legalCode(demoCatalogue(), 'soviet', 'usa', 12, i),
        guide: { system: 'Bench' },
        visibility: 'public',
        tags: ['bench'],
      });
      owned.push(JSON.parse(r.body as string).data);
    }
    const library = Array.from({ length: QUICK ? 200 : 1_000 }, (_, i) => publicDeck(i));
    for (let i = 0; i < library.length; i += 20) await Promise.all(library.slice(i, i + 20).map((d) => createDeck(d)));
    const shared = owned[0] as { id: string; share_slug: string };

    // 1. per route ---------------------------------------------------------------------------------------------
    // A url, or the warm-up's and the measured request's when they must differ.
    const cases: [string, string, string | [string, string], string | undefined, unknown][] = [
      ['shared read', 'GET', `/api/v1/decks/${shared.share_slug}`, undefined, undefined],
      ['search (no filter)', 'GET', '/api/v1/decks?limit=20', undefined, undefined],
      ['search (tag)', 'GET', '/api/v1/decks?tag=tag3&limit=20', undefined, undefined],
      ['search (q)', 'GET', '/api/v1/decks?q=tempo&limit=20', undefined, undefined],
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
      [
        'create (public, 2 tags)',
        'POST',
        decksPath,
        apiKey,
        { deck_code: legalCode(demoCatalogue(), 'soviet', 'usa'), guide: { system: 'B' }, visibility: 'public', tags: ['a', 'b'] },
      ],
      ['PATCH (public deck)', 'PATCH', `${decksPath}/${(owned[1] as { id: string }).id}`, apiKey, { sort_order: 2 }],
      // A deck's first like (each request a deck of its own): under ten likes, each like folds into the deck and its entries.
      [
        'like (a deck under 10 likes)',
        'PUT',
        [-1, -2].map((i) => `/api/v1/users/${account.user_id}/likes/${(library.at(i) as StoredDeck).share_slug}`) as [string, string],
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
      ['card', 'GET', '/api/v1/cards/2B', undefined, undefined],
    ];
    // The like's fold is the store-change worker's: it is given the counter's change as the stream carries it.
    const likeFolds = async (slug: string) => {
      const counts = await getCounts(slug, true);
      const counter = {
        pk: { S: `COUNT#${slug}` },
        sk: { S: 'COUNT' },
        likes: { N: String(counts.likes) },
        changes: { N: String(counts.changes) },
      };
      tally = fresh();
      await handleChanges({
        Records: [{ eventName: 'MODIFY', dynamodb: { Keys: { pk: counter.pk, sk: counter.sk }, NewImage: counter, SequenceNumber: '1' } }],
      });
      return tally;
    };
    const costs: (string | number)[][] = [];
    for (const [name, method, urls, key, body] of cases) {
      const [warmUrl, url] = typeof urls === 'string' ? [urls, urls] : urls;
      await invoke(method, warmUrl, key, body); // warm
      tally = fresh();
      const r = await invoke(method, url, key, method === 'POST' ? body : method === 'PATCH' ? { sort_order: 3 } : body);
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
      costs.push(row(name, r.statusCode ?? 0, tally));
      if (name.startsWith('like (a deck under'))
        costs.push(row('  its fold (the worker)', '—', await likeFolds(url.split('/').at(-1) as string)));
    }
    console.log(
      '\n1. DynamoDB per request (the shared read writes nothing: its view is counted from the access log, see part 4; a call that failed, such as a repeated like, counts as an operation, with no units known)',
    );
    table(['route', 'status', 'operations', 'items read', 'items written', 'read units', 'write units', 'DynamoDB $ / million'], costs);

    // 2. handler vs raw ----------------------------------------------------------------------------------------
    // Timed without part 1's counting middleware; the raw calls go through a plain document client, as
    // anyone would write them with the SDK's defaults (the service's own client is tuned: see client.ts).
    documentClient().middlewareStack.remove('bench-tally');
    const plain = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
    );
    const N = QUICK ? 100 : 3_000;
    // The auth read every owner request makes: one consistent GetItem of a key.
    const keyRead = () =>
      plain.send(new GetCommand({ TableName: tableName(ACCOUNTS), Key: { pk: 'KEY#x', sk: 'KEY' }, ConsistentRead: true }));
    // Quiet decks: each read once here (their own decks, so that part 4 counts only its own views).
    const quiet = Array.from({ length: N }, (_, i) => publicDeck(100_000 + i));
    for (let i = 0; i < quiet.length; i += 20) await Promise.all(quiet.slice(i, i + 20).map((d) => createDeck(d)));
    const sharedRead = (slug: string) =>
      Promise.all([
        plain.send(
          new QueryCommand({
            TableName: tableName(DECKS),
            IndexName: 'by_share_slug',
            KeyConditionExpression: 'share_slug = :s',
            ExpressionAttributeValues: { ':s': slug },
            Limit: 1,
          }),
        ),
        plain.send(new GetCommand({ TableName: tableName(DECKS), Key: bucketKey(slug) })),
      ]);
    const raw: Record<string, (i: number) => Promise<unknown>> = {
      'shared read (hot deck)': () => sharedRead(shared.share_slug),
      'shared read (quiet: a deck read once)': (i) => sharedRead((quiet[i] as StoredDeck).share_slug),
      'search (no filter)': () =>
        plain.send(
          new QueryCommand({
            TableName: tableName(DECKS),
            IndexName: 'search_by_date',
            KeyConditionExpression: 'facet = :f',
            ExpressionAttributeValues: { ':f': 'all' },
            // The same request as the handler's: only the fields a search shows (store/items/search-entry.ts).
            ...SEARCH_PROJECTION,
            Limit: 21,
          }),
        ),
      'owner list (50)': async () => {
        await keyRead();
        return plain.send(
          new QueryCommand({
            TableName: tableName(DECKS),
            IndexName: 'by_owner_order',
            KeyConditionExpression: 'pk = :p',
            ExpressionAttributeValues: { ':p': `USER#${account.user_id}` },
            ConsistentRead: true,
            Limit: 51,
          }),
        );
      },
      'owner read': async () => {
        await keyRead();
        return plain.send(
          new GetCommand({
            TableName: tableName(DECKS),
            Key: { pk: `USER#${account.user_id}`, sk: `DECK#${shared.id}` },
            ConsistentRead: true,
          }),
        );
      },
    };
    const urls: Record<string, (i: number) => [string, string | undefined]> = {
      'shared read (hot deck)': () => [`/api/v1/decks/${shared.share_slug}`, undefined],
      'shared read (quiet: a deck read once)': (i) => [`/api/v1/decks/${(quiet[i] as StoredDeck).share_slug}`, undefined],
      'search (no filter)': () => ['/api/v1/decks?limit=20', undefined],
      'owner list (50)': () => [`${decksPath}?limit=50`, apiKey],
      'owner read': () => [`${decksPath}/${shared.id}`, apiKey],
    };
    const latency: (string | number)[][] = [];
    for (const name of Object.keys(raw)) {
      const request = urls[name] as (i: number) => [string, string | undefined];
      const times = { handler: [] as number[], raw: [] as number[] };
      const cpu = { handler: 0, raw: 0 };
      for (let i = 0; i < N; i++) {
        // The API Gateway event and context are built before the clock starts: in Lambda the runtime hands them over.
        const handle = await prepared('GET', ...request(i));
        for (const which of i % 2 ? (['raw', 'handler'] as const) : (['handler', 'raw'] as const)) {
          const event = which === 'handler' ? handle.event() : undefined;
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          await (event ? handle.run(event) : (raw[name] as (i: number) => Promise<unknown>)(i));
          times[which].push(performance.now() - t0);
          const c = process.cpuUsage(c0);
          cpu[which] += c.user + c.system;
        }
      }
      const [h50, r50, h99, r99] = [pct(times.handler, 50), pct(times.raw, 50), pct(times.handler, 99), pct(times.raw, 99)];
      latency.push([
        name,
        h50.toFixed(2),
        r50.toFixed(2),
        (h50 / r50).toFixed(2),
        h99.toFixed(2),
        r99.toFixed(2),
        (h99 / r99).toFixed(2),
        (cpu.handler / cpu.raw).toFixed(2),
      ]);
    }
    console.log(`\n2. Handler against the raw SDK calls of the same operations (${N} each, interleaved; ms)`);
    table(['route', 'p50', 'raw p50', 'ratio', 'p99', 'raw p99', 'ratio', 'CPU ratio'], latency);

    // 3. bundles ----------------------------------------------------------------------------------------------
    recorder();
    const baseline = join(work, 'getitem.ts');
    writeFileSync(
      baseline,
      bareSource(
        ['GetCommand'],
        `const r = await doc.send(new GetCommand({ TableName: ${JSON.stringify(tableName(DECKS))}, Key: { pk: 'USER#x', sk: 'DECK#y' } })); return { statusCode: r.Item ? 200 : 404, body: '' };`,
      ),
    );
    // The same DynamoDB calls as a route's request, in a bundle that makes only them (a plain document
    // client, no handler): how much of a route's cold start is its calls, how much the rest.
    const rawBundle = async (name: string, calls: Recorded[]) => {
      const source = join(work, `${name}-raw.ts`);
      writeFileSync(source, replaySource(calls));
      return bundle(source, `${name}-raw`);
    };
    const hello = join(work, 'hello.ts');
    writeFileSync(hello, "export const handler = async () => ({ statusCode: 200, body: 'hello' });\n");
    const bundle = async (entry: string, name: string, alias: Record<string, string> = BUNDLE.alias) => {
      const outfile = join(work, name, 'index.mjs');
      await build({
        ...BUNDLE,
        banner: { js: BUNDLE.banner },
        mainFields: [...BUNDLE.mainFields],
        entryPoints: [entry],
        bundle: true,
        outfile,
        nodePaths: [join(ROOT, 'node_modules')],
        absWorkingDir: ROOT,
        logLevel: 'silent',
        alias,
      });
      return outfile;
    };
    // Each route's cold request is one that succeeds (its main path, not an early error): a body where it
    // takes one, and for the delete a deck of its own each round.
    const demo = demoCatalogue();
    const soviet = deckableCards(demo, 'soviet');
    const bodies: Partial<Record<string, unknown>> = {
      createDeck: { deck_code: legalCode(demo, 'soviet', 'usa'), guide: { system: 'B' } },
      updateDeck: { sort_order: 5 },
      deleteDeck: {},
      validateDeck: { deck_code: legalCode(demo, 'soviet', 'usa'), guide: { system: 'B' } },
      replaceCards: {
        deck_code: legalCode(demo, 'soviet', 'usa', 8, 0),
        replacements: [{ remove_card_id: soviet[0]?.card_id, add_card_id: soviet.at(-1)?.card_id, count: 1 }],
      },
    };
    // One deck to delete (and one public deck to like) per round, and one more for recording the route's calls.
    const RECORD_ROUND = COLD_ROUNDS;
    const doomed: string[] = [];
    for (let k = 0; k <= RECORD_ROUND; k++)
      doomed.push(JSON.parse((await invoke('POST', decksPath, apiKey, bodies.createDeck)).body as string).data.id);
    const event = (route: Route | undefined, k: number) => {
      if (!route) return {};
      const method = route.method === 'ANY' ? 'GET' : route.method;
      const deckId = route.name === 'deleteDeck' ? doomed[k] : route.name === 'updateDeck' ? (owned[2] as { id: string }).id : shared.id;
      // A like changes something each round: each round likes (and then unlikes) a deck of its own.
      const slug = route.name === 'likeDeck' || route.name === 'unlikeDeck' ? (library[k] as StoredDeck).share_slug : shared.share_slug;
      const url = route.path
        .replace('{user_id}', account.user_id)
        .replace('{deck_id}', deckId as string)
        .replace('{share_slug}', slug)
        .replace('{card_id}', '2B')
        .replace('{asset}', 'scalar.js');
      const body = bodies[route.name];
      return toEvent(
        {
          method,
          url,
          headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: Buffer.from(body ? JSON.stringify(body) : ''),
        },
        route,
        matchRoute(method, url).params,
      );
    };
    /** One cold start in a new process: import (init) and the first invoke. */
    const coldRun = (c: ColdCase, k: number) => {
      const script = `const t0 = performance.now(); const { handler } = await import(${JSON.stringify(c.file)}); const t1 = performance.now();
        const r = await handler(JSON.parse(process.env.EVENT), { getRemainingTimeInMillis: () => 9000, awsRequestId: 'b', functionName: 'bench' }); const t2 = performance.now();
        console.log(JSON.stringify({ init: t1 - t0, total: t2 - t0, status: r.statusCode }));`;
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        env: {
          ...process.env,
          AWS_REGION: 'eu-west-1',
          POWERTOOLS_LOG_LEVEL: 'ERROR',
          EVENT: JSON.stringify(event(c.route, k)),
          AWS_ACCESS_KEY_ID: 'local',
          AWS_SECRET_ACCESS_KEY: 'local',
          ...c.env,
        },
        encoding: 'utf8',
      });
      return JSON.parse(out.trim().split('\n').at(-1) as string) as ColdStart;
    };
    /**
     * Cold starts of several bundles side by side: k rounds, each running every case once in a rotating
     * order. Medians per case, and each case's ratio to the first as the median of its per-round ratios
     * (a round's runs are seconds apart: pairing them takes out most of this machine's drift).
     */
    const sideBySide = (cases: ColdCase[]) => {
      const runs = cases.map(() => [] as ColdStart[]);
      for (let k = 0; k < COLD_ROUNDS; k++)
        for (let j = 0; j < cases.length; j++) {
          const i = (j + k) % cases.length;
          (runs[i] as ColdStart[]).push(coldRun(cases[i] as ColdCase, k));
        }
      return runs.map((r) => ({
        init: pct(
          r.map((x) => x.init),
          50,
        ),
        total: pct(
          r.map((x) => x.total),
          50,
        ),
        runs: r,
      }));
    };
    /** How many times b's cold start a's is: the median of the per-round ratios. */
    const paired = (a: Cold, b: Cold) =>
      pct(
        a.runs.map((x, k) => x.total / (b.runs[k] as ColdStart).total),
        50,
      );
    const demoFile = join(work, 'demo.json');
    writeFileSync(demoFile, compileCatalogue(demoCatalogue()));
    const realFile = join(work, 'real.json');
    if (hasRealCatalogue) writeFileSync(realFile, compileCatalogue(loadCatalogueFile(REAL_CATALOGUE_FILE)));
    const baseCase: ColdCase = { file: await bundle(baseline, 'getitem') };
    // The same GetItem bundle without infra/aliases: what those substitutions take off a cold start.
    const publishedCase: ColdCase = { file: await bundle(baseline, 'getitem-sdk', {}) };
    const [base, published, hi] = sideBySide([baseCase, publishedCase, { file: await bundle(hello, 'hello') }]) as [Cold, Cold, Cold];
    const row = (name: string, catalogue: string, file: string, m: Cold, b: Cold, extra = '', raw = '') => [
      name,
      [...new Set(m.runs.map((r) => r.status ?? '-'))].join('/'),
      catalogue,
      (statSync(file).size / 1024).toFixed(0),
      m.init.toFixed(1),
      b.init.toFixed(1),
      m.total.toFixed(1),
      b.total.toFixed(1),
      paired(m, b).toFixed(2),
      raw,
      extra,
    ];
    const bundles: (string | number)[][] = [
      row('GetItem baseline', '-', baseCase.file, base, base),
      row('GetItem, SDK as published', '-', publishedCase.file, published, base, 'no infra/aliases'),
      row('hello world', '-', join(work, 'hello', 'index.mjs'), hi, base),
    ];
    for (const route of ROUTES as readonly Route[]) {
      if (
        QUICK &&
        !['listDecks', 'createDeck', 'replaceCards', 'deleteDeck', 'likeDeck', 'searchDecks', 'readSharedDeck', 'listCards'].includes(
          route.name,
        )
      )
        continue;
      const file = await bundle(resolve(ROOT, route.entry), route.name);
      // The files a route ships beside its bundle (CDK copies them into the asset), found by LAMBDA_TASK_ROOT.
      for (const shipped of route.files ?? []) copyFileSync(resolve(ROOT, shipped), join(dirname(file), basename(shipped)));
      const env = { ...(route.catalogue ? { CATALOGUE_FILE: demoFile } : {}), ...(route.files ? { LAMBDA_TASK_ROOT: dirname(file) } : {}) };
      // Each bundle against the baseline measured in the same rounds (the machine drifts between routes).
      const withReal = route.catalogue && hasRealCatalogue;
      const calls = await recordCalls(route, event(route, RECORD_ROUND) as APIGatewayProxyEventV2);
      const rawCase: ColdCase[] = calls.length ? [{ file: await rawBundle(route.name, calls) }] : [];
      const [b, m, ...rest] = sideBySide([
        baseCase,
        { file, route, env },
        ...rawCase,
        ...(withReal ? [{ file, route, env: { ...env, CATALOGUE_FILE: realFile } }] : []),
      ]) as Cold[];
      const [raw, real] = calls.length ? rest : [undefined, ...rest];
      bundles.push(
        row(
          route.name,
          route.catalogue ? 'demo' : '-',
          file,
          m as Cold,
          b as Cold,
          real ? `real: ${real.total.toFixed(1)} (${paired(real, m as Cold).toFixed(2)}× demo)` : '',
          raw
            ? `${raw.total.toFixed(1)}: ${paired(raw, b as Cold).toFixed(2)}× GetItem; the route ${paired(m as Cold, raw).toFixed(2)}× them`
            : '',
        ),
      );
    }
    console.log(
      `\n3. Bundles (CDK esbuild settings): size, and init + first invoke against the GetItem-only bundle run in the same rounds (${COLD_ROUNDS} rounds: medians, ms; ratios: medians of the rounds' ratios)`,
    );
    table(
      [
        'bundle',
        'status',
        'catalogue',
        'KiB',
        'import',
        'GetItem import',
        'init + 1st invoke',
        'GetItem then',
        '× GetItem',
        'its calls alone',
        'real catalogue',
      ],
      bundles,
    );

    // 4. views ------------------------------------------------------------------------------------------------
    instrument(); // counted again (part 2 ran without it)
    const reads = QUICK ? 2_000 : 10_000;
    const weights = library.map((_, r) => 1 / (r + 1));
    const sum = weights.reduce((a, b) => a + b, 0);
    const perDeck = weights.map((w) => Math.max(1, Math.round((w / sum) * reads)));
    const served = perDeck.reduce((a, b) => a + b, 0);
    const order = library.flatMap((d, i) => Array<string>(perDeck[i] as number).fill(d.share_slug));
    // Views are counted from the access log: its lines of the reads, delivered to countViews in batches
    // (one every 5 s at 200 reads a second: 1,000 lines), then the view log's worker adds them to their
    // buckets a window at a time and the store-change worker folds them. Both follow the table's stream
    // from here on, the view log's worker with one window for the workload.
    const follow = (worker: (typeof WORKERS)[number], batchingWindowMs: number) =>
      startStreamPoller(
        {
          endpoint: dynamo.endpoint,
          tableName: tableName(DECKS),
          worker,
          invoke: handleChanges,
          intervalMs: 50,
          startAt: 'LATEST',
          batchingWindowMs,
        },
        dynamoClient(),
      );
    const pollers = [await follow(WORKERS[0], 0), await follow(WORKERS[1], 3_000)];
    tally = fresh();
    for (let i = 0; i < order.length; i += 25)
      await Promise.all(order.slice(i, i + 25).map((slug) => invoke('GET', `/api/v1/decks/${slug}`)));
    const whileReading = tally.written;
    tally = fresh();
    const route = VIEW_SUBSCRIPTION.routes[0] as Route;
    const lines = order.map((slug, i) =>
      JSON.stringify(
        accessLine({
          '$context.routeKey': `${route.method} ${route.path}`,
          '$context.path': `/api/v1/decks/${slug}`,
          '$context.status': '200',
          '$context.requestTimeEpoch': String(i),
        }),
      ),
    );
    for (let i = 0; i < lines.length; i += 1_000) {
      const logEvents = lines.slice(i, i + 1_000).map((message, j) => ({ id: String(i + j), timestamp: i + j, message }));
      const data: CloudWatchLogsDecodedData = {
        messageType: 'DATA_MESSAGE',
        owner: 'bench',
        logGroup: 'access',
        logStream: 'bench',
        subscriptionFilters: [VIEW_SUBSCRIPTION.name],
        logEvents,
      };
      await countViews(encodeLogs(data));
    }
    // Until the workers have added and folded what the batches moved: no write for two seconds.
    for (let last = -1; tally.written !== last; ) {
      last = tally.written;
      await new Promise((r) => setTimeout(r, 2_000));
    }
    await Promise.all(pollers.map((p) => p.stop()));
    const batch = tally;
    const counted = (
      await Promise.all(
        library.map((d) =>
          documentClient().send(
            new GetCommand({
              TableName: tableName(DECKS),
              Key: bucketKey(d.share_slug),
              ProjectionExpression: '#a',
              ExpressionAttributeNames: { '#a': `v_${d.share_slug}` },
            }),
          ),
        ),
      )
    ).reduce((n, r) => n + Number(Object.values(r.Item ?? {})[0] ?? 0), 0);
    console.log(
      `\n4. Views: ${served} shared reads of ${library.length} public decks (Zipf: the head ${perDeck[0]}, ${perDeck.filter((n) => n <= 5).length} decks read 5 times or fewer)`,
    );
    table(
      [
        'items written while reading',
        'items written by counting and folding',
        'write units',
        'items per view',
        'views counted',
        'views served',
      ],
      [[whileReading, batch.written, batch.wcu.toFixed(1), (batch.written / served).toFixed(3), counted, served]],
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
    await dynamo.stop();
  }
}

await main();
