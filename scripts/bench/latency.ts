/**
 * Part 2: per route, the in-process handler's p50/p99 and CPU against the raw SDK calls of the same
 * operations, interleaved (this machine is shared and noisy: compare the ratios, not the times).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { App } from 'aws-cdk-lib';
import { demoCatalogue } from '#catalogue/load.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { mainPool } from '#rules/plays.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { createDeck } from '#store/decks.ts';
import { apiKeyKey } from '#store/items/api-key.ts';
import { deckKey, deckPk, type StoredDeck } from '#store/items/deck.ts';
import { cardsKey } from '#store/items/plays.ts';
import { SEARCH_PROJECTION } from '#store/items/search-entry.ts';
import { VERSION, versionKey, versionsPk } from '#store/items/version.ts';
import { viewCountKey } from '#store/items/view-count.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#store/local.ts';
import { ACCOUNTS, DECKS, indexName, tableName } from '#store/tables.ts';
import { opsSettings } from '../../infra/settings.ts';
import { legalCode } from '../../test/support/decks.ts';
import { type Bench, invoke, pct, prepared, publicDeck, QUICK, table } from './common.ts';

export async function latency({ account, apiKey, decksPath, shared, history }: Bench) {
  // Timed with no recorder; the raw calls go through a plain document client, as anyone would write
  // them with the SDK's defaults (the service's own client is tuned: see client.ts).
  const plain = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
  );
  const N = QUICK ? 100 : 3_000;
  // The auth read every owner request makes: one consistent GetItem of a key.
  const keyRead = () => plain.send(new GetCommand({ TableName: tableName(ACCOUNTS), Key: apiKeyKey('x'), ConsistentRead: true }));
  // Quiet decks: each read once here (their own decks, so that part 4 counts only its own views).
  const quiet = Array.from({ length: N }, (_, i) => publicDeck(100_000 + i));
  for (let i = 0; i < quiet.length; i += 20) await Promise.all(quiet.slice(i, i + 20).map((d) => createDeck(d)));
  // A page of 20 versions, newest first, as the history routes read it (store/versions.ts).
  const versionsPage = () =>
    plain.send(
      new QueryCommand({
        TableName: tableName(DECKS),
        KeyConditionExpression: 'pk = :p AND begins_with(sk, :v)',
        ExpressionAttributeValues: { ':p': versionsPk(account.user_id, history.id), ':v': VERSION.sk },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: 21,
      }),
    );
  const slugQuery = (slug: string) =>
    plain.send(
      new QueryCommand({
        TableName: tableName(DECKS),
        IndexName: indexName('by_share_slug'),
        KeyConditionExpression: 'share_slug = :s',
        ExpressionAttributeValues: { ':s': slug },
        Limit: 1,
      }),
    );
  const sharedRead = (slug: string) =>
    Promise.all([slugQuery(slug), plain.send(new GetCommand({ TableName: tableName(DECKS), Key: viewCountKey(slug) }))]);
  const raw: Record<string, (i: number) => Promise<unknown>> = {
    'shared read (hot deck)': () => sharedRead(shared.share_slug),
    'shared read (quiet: a deck read once)': (i) => sharedRead((quiet[i] as StoredDeck).share_slug),
    'search (no filter)': () =>
      plain.send(
        new QueryCommand({
          TableName: tableName(DECKS),
          IndexName: indexName('search_by_date'),
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
          IndexName: indexName('by_owner_order'),
          KeyConditionExpression: 'pk = :p',
          ExpressionAttributeValues: { ':p': deckPk(account.user_id) },
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
          Key: deckKey(account.user_id, shared.id),
          ConsistentRead: true,
        }),
      );
    },
    'history (owner, 20)': async () => {
      await keyRead();
      return versionsPage();
    },
    'history (public, 20)': async () => {
      await slugQuery(history.share_slug);
      return versionsPage();
    },
    // The version, then the version holding the texts it kept unchanged (here version 1: the archive).
    // The account's key ids from its index, then each key (store/accounts.ts listKeys).
    'keys (list)': async () => {
      await keyRead();
      const { Items = [] } = await plain.send(
        new QueryCommand({
          TableName: tableName(ACCOUNTS),
          IndexName: indexName('keys_by_user'),
          KeyConditionExpression: 'key_user_id = :u',
          ExpressionAttributeValues: { ':u': account.user_id },
          ProjectionExpression: 'key_id',
          ScanIndexForward: false,
        }),
      );
      return Promise.all(
        Items.map((i) => plain.send(new GetCommand({ TableName: tableName(ACCOUNTS), Key: apiKeyKey(i.key_id), ConsistentRead: true }))),
      );
    },
    // The share page and the image read the deck as the shared read does, without its view count.
    // The deck, then its main nation's figures (each card's "in N%"): the page's two reads, one after the other.
    'share page': async () => {
      const { Items } = await slugQuery(shared.share_slug);
      return plain.send(new GetCommand({ TableName: tableName(DECKS), Key: cardsKey(mainPool(String(Items?.[0]?.main_faction))) }));
    },
    'deck image (rendered)': () => slugQuery(shared.share_slug),
    'deck image (If-None-Match: 304)': () => slugQuery(shared.share_slug),
    'version read (owner)': async () => {
      await keyRead();
      const read = (v: number) =>
        plain.send(new GetCommand({ TableName: tableName(DECKS), Key: versionKey(account.user_id, history.id, v), ConsistentRead: true }));
      await read(2);
      return read(1);
    },
  };
  // The image's ETag, for the conditional requests.
  const image = `/api/v1/decks/${shared.share_slug}/image.png`;
  const etag = String((await invoke('GET', image)).headers?.etag);
  const urls: Record<string, (i: number) => [string, string | undefined, Record<string, string>?]> = {
    'shared read (hot deck)': () => [`/api/v1/decks/${shared.share_slug}`, undefined],
    'shared read (quiet: a deck read once)': (i) => [`/api/v1/decks/${(quiet[i] as StoredDeck).share_slug}`, undefined],
    'search (no filter)': () => ['/api/v1/decks?limit=20', undefined],
    'owner list (50)': () => [`${decksPath}?limit=50`, apiKey],
    'owner read': () => [`${decksPath}/${shared.id}`, apiKey],
    'history (owner, 20)': () => [`${decksPath}/${history.id}/versions?limit=20`, apiKey],
    'history (public, 20)': () => [`/api/v1/decks/${history.share_slug}/versions?limit=20`, undefined],
    'version read (owner)': () => [`${decksPath}/${history.id}/versions/2`, apiKey],
    'keys (list)': () => [`/api/v1/users/${account.user_id}/keys`, apiKey],
    'share page': () => [`/d/${shared.share_slug}`, undefined],
    'deck image (rendered)': () => [image, undefined],
    'deck image (If-None-Match: 304)': () => [image, undefined, { 'if-none-match': etag }],
  };
  const latency: (string | number)[][] = [];
  for (const name of Object.keys(raw)) {
    const request = urls[name] as (i: number) => [string, string | undefined, Record<string, string>?];
    const times = { handler: [] as number[], raw: [] as number[] };
    const cpu = { handler: 0, raw: 0 };
    // A render takes tens of milliseconds: fewer rounds of it.
    const rounds = name === 'deck image (rendered)' ? Math.min(N, 300) : N;
    for (let i = 0; i < rounds; i++) {
      // The API Gateway event and context are built before the clock starts: in Lambda the runtime hands them over.
      const [url, key, headers] = request(i);
      const handle = await prepared('GET', url, key, undefined, headers);
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
  console.log(
    `\n2. Handler against the raw SDK calls of the same operations (${N} each, the rendered image ${Math.min(N, 300)}; interleaved; ms)`,
  );
  table(['route', 'p50', 'raw p50', 'ratio', 'p99', 'raw p99', 'ratio', 'CPU ratio'], latency);

  await codeRenders(N);
}

/**
 * The code image at its cap (contract §10.2): renders a second in one environment (a Lambda environment
 * runs one request at a time), each of a code of its own (nothing in the function remembers an image),
 * and at the cap: the reserved concurrency's environments side by side, against the route's throttle.
 */
async function codeRenders(n: number) {
  const settings = opsSettings(new App());
  const cap = settings.cappedConcurrency ?? 1;
  const rounds = Math.min(n, 200);
  const demo = demoCatalogue();
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < rounds; i++) {
    const code = urlCodeOf(parseDeckCode(legalCode(demo, i % 2 ? 'soviet' : 'germany', i % 2 ? 'usa' : 'japan', 12, i % 40)));
    const handle = await prepared('GET', `/api/v1/codes/${code}/image.png${i % 3 ? '' : '?lang=de'}`);
    const event = handle.event();
    const t0 = performance.now();
    const answer = await handle.run(event);
    times.push(performance.now() - t0);
    if (answer.statusCode !== 200) throw new Error(`code image: ${answer.statusCode}`);
  }
  const cpu = process.cpuUsage(cpu0);
  const p50 = pct(times, 50);
  const perEnvironment = 1000 / p50;
  console.log(`\n2b. The code image at its cap (${rounds} renders of distinct codes, one at a time, as one environment runs them; ms)`);
  table(
    [
      'p50',
      'p99',
      'CPU ms a render',
      'renders/s, one environment',
      `reserved concurrency`,
      'renders/s at the cap',
      'route throttle (rate / burst)',
    ],
    [
      [
        p50.toFixed(1),
        pct(times, 99).toFixed(1),
        ((cpu.user + cpu.system) / 1000 / rounds).toFixed(1),
        perEnvironment.toFixed(1),
        cap,
        (perEnvironment * cap).toFixed(1),
        `${settings.throttle.capped.rateLimit} / ${settings.throttle.capped.burstLimit}`,
      ],
    ],
  );
}
