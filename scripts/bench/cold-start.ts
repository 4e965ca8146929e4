/**
 * Part 3: per function bundle, built with the CDK's esbuild settings: its size, and init + first invoke
 * in a new process against a bundle that only does one lib-dynamodb GetItem, a hello-world, and a
 * bundle that makes only the route's own DynamoDB calls (recorded from the route, replayed alone).
 */

import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { copyFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { build } from 'esbuild';
import { createAccount, issueKey } from '#auth/accounts.ts';
import { demoCatalogue, loadCatalogueFile } from '#catalogue/load.ts';
import { exampleRequest, ROUTES, type Route } from '#routes';
import { compileCatalogue } from '#rules/catalogue.ts';
import { parseDeckCode } from '#rules/deck-code.ts';
import { writeDeckText } from '#rules/deck-text.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { shippedFiles } from '#shipped';
import { deckKey, type StoredDeck } from '#store/items/deck.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { BUNDLE } from '../../infra/bundling.ts';
import { cutFonts } from '../../infra/cut-fonts.ts';
import { lambdaContext, matchRoute, toEvent } from '../../infra/local/events.ts';
import { Environment } from '../../infra/local/lambda/environment.ts';
import { deckableCards, legalCode } from '../../test/support/decks.ts';
import { type Call, operationOf, recordDynamo } from '../../test/support/dynamo-recorder.ts';
import { hasRealCatalogue, REAL_CATALOGUE_FILE } from '../../test/support/shared.ts';
import { type Bench, type Handler, invoke, ONLY_ROUTES, pct, QUICK, ROOT, table } from './common.ts';

/**
 * The Discord application of the bench: a key pair of its own, its public key given to the interactions
 * function (and to this process, which records each route's calls), and the /deck command it signs.
 */
const BENCH_DISCORD = (() => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
  process.env.DISCORD_PUBLIC_KEY = publicHex;
  return {
    publicHex,
    sign: (body: Buffer) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      return {
        'x-signature-timestamp': timestamp,
        'x-signature-ed25519': sign(null, Buffer.concat([Buffer.from(timestamp), body]), privateKey).toString('hex'),
      };
    },
    command: {
      type: 2,
      locale: 'de',
      data: { name: 'deck', type: 1, options: [{ name: 'code', type: 3, value: legalCode(demoCatalogue(), 'soviet', 'usa', 8, 0) }] },
    },
  };
})();

interface ColdCase {
  file: string;
  route?: Route;
  env?: Record<string, string>;
  /**
   * Run as Lambda runs it: a new execution environment (infra/local/lambda) whose runtime client asks
   * the Runtime API for the event. `init` is then Lambda's Init Duration (start to the first
   * invocation/next), `total` start to the first response — process start and the runtime client
   * included, which the in-process figures leave out.
   */
  runtime?: boolean;
}
interface ColdStart {
  init: number;
  total: number;
  /** The first request's status. */
  status?: number;
}
type Cold = ColdStart & { runs: ColdStart[] };
/** What every cold start's process is given (besides the run's own environment). */
const COLD_ENV = { AWS_REGION: 'eu-west-1', POWERTOOLS_LOG_LEVEL: 'ERROR', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' };
const strings = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
/** Rounds of cold starts per bundle (each a new process). */
const COLD_ROUNDS = QUICK ? 5 : 21;

/** The DynamoDB calls a route's request makes (in this process, warm), with their inputs and overlaps. */
async function recordCalls(route: Route, event: APIGatewayProxyEventV2): Promise<Call[]> {
  const { handler } = (await import(resolve(ROOT, route.handler))) as { handler: Handler };
  const recorder = recordDynamo();
  try {
    const r = await handler(event, lambdaContext(route));
    if ((r.statusCode ?? 500) >= 300 && recorder.calls.length)
      throw new Error(`recording ${route.name}: it answered ${r.statusCode} ${String(r.body).slice(0, 300)}`);
    return [...recorder.calls];
  } finally {
    recorder.stop();
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
function replayInput(call: Call): Record<string, unknown> {
  const command = operationOf(call);
  // A replay is a new transaction each round: not the recorded one's client token.
  const { ReturnConsumedCapacity: _units, ClientRequestToken: _token, ...rest } = call.input;
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
function replaySource(calls: Call[]): string {
  const steps: Call[][] = [];
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
  const command = (c: Call) => {
    const name = LIB_COMMANDS[operationOf(c)];
    if (!name) throw new Error(`no replay for ${c.command}`);
    return name;
  };
  const send = (c: Call) => `doc.send(new ${command(c)}(${JSON.stringify(replayInput(c))}))`;
  const body = steps.map((step) =>
    step.length === 1 ? `await ${send(step[0] as Call)};` : `await Promise.all([${step.map(send).join(', ')}]);`,
  );
  return bareSource([...new Set(calls.map(command))], `${body.join(' ')} return { statusCode: 200, body: '' };`);
}
/** A bundle's source with no handler of ours: a plain document client (the SDK's defaults), the given lib-dynamodb commands, and `body` as the handler. */
const bareSource = (commands: string[], body: string) => `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ${commands.join(', ')} } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));
export const handler = async () => { ${body} };
`;

/** Rounds are numbered: 0…COLD_ROUNDS-1 in a process, then the one that records a route's calls, then those under the Runtime API. */
const RECORD_ROUND = COLD_ROUNDS;

/** Builds an entry as the CDK does (infra/bundling.ts) into work/<name>/index.mjs; answers the bundle's path. */
const bundler =
  (work: string) =>
  async (entry: string, name: string, alias: Record<string, string> = BUNDLE.alias): Promise<string> => {
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

type EventOf = (route: Route | undefined, k: number) => ReturnType<typeof toEvent> | Record<string, never>;

/**
 * The request each route's cold start makes, round by round (rounds 0…COLD_ROUNDS-1 in a process, the
 * recording at RECORD_ROUND, the runs under the Runtime API after it): one that succeeds (its main path,
 * not an early error), with what it changes made for each round (a deck to delete, a key to make or revoke,
 * an account to erase).
 */
async function coldEvents({ account, apiKey, decksPath, owned, library, shared, history }: Bench): Promise<EventOf> {
  const demo = demoCatalogue();
  const soviet = deckableCards(demo, 'soviet');
  const bodies: Partial<Record<string, unknown>> = {
    createDeck: { deck_code: legalCode(demo, 'soviet', 'usa'), guide: { system: 'B' } },
    deleteDeck: {},
    restoreDeckVersion: {},
    createKey: { scopes: ['decks:read'], label: 'bench' },
    revokeKey: {},
    validateDeck: { deck_code: legalCode(demo, 'soviet', 'usa'), guide: { system: 'B' } },
    replaceCards: {
      deck_code: legalCode(demo, 'soviet', 'usa', 8, 0),
      replacements: [{ remove_card_id: soviet[0]?.card_id, add_card_id: soviet.at(-1)?.card_id, count: 1 }],
    },
    // A collection of every soviet card, 3 copies each; a PATCH adds a copy (each round a change: a new version).
    putCollection: { cards: Object.fromEntries(soviet.map((c) => [c.card_id, 3])) },
    patchCollection: { add: { [soviet[0]?.card_id as string]: 1 } },
    // Events (contract §13.4): the bench's account organizes them and plays in them.
    createEvent: {
      name: 'Bench Cup',
      format: 'standard',
      pool_date: '2026-11-01',
      decks_per_player: 1,
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
      lists: 'open',
    },
    putEntry: { decks: [{ deck_code: legalCode(demo, 'soviet', 'usa') }] },
  };
  const newEvent = async () => {
    const id = JSON.parse((await invoke('POST', '/api/v1/events', apiKey, bodies.createEvent)).body as string).data.event_id as string;
    await invoke('PUT', `/api/v1/events/${id}/entries/${account.user_id}`, apiKey, bodies.putEntry);
    return id;
  };
  // An event with the account's entry; and one a round for its withdrawal.
  const eventId = await newEvent();
  const withdrawn: string[] = [];
  for (let k = 0; k <= 2 * COLD_ROUNDS; k++) withdrawn.push(await newEvent());
  // One deck to delete (and one public deck to like) per round, and one more for recording the route's calls.
  // Rounds 0…COLD_ROUNDS-1 in a process, the recording at COLD_ROUNDS, the runs under the Runtime API after it.
  const doomed: string[] = [];
  for (let k = 0; k <= 2 * COLD_ROUNDS; k++)
    doomed.push(JSON.parse((await invoke('POST', decksPath, apiKey, bodies.createDeck)).body as string).data.id);
  // The history routes read the deck of 25 versions; each restore puts back version 1 or 2 (sort_order
  // 0 or 1), the other one than the last: every restore changes the deck.
  const historyRoutes = ['listDeckVersions', 'readDeckVersion', 'restoreDeckVersion', 'listSharedVersions'];
  let restores = 0;
  // A PATCH or restore is recorded on a deck of its own: the replay of its calls writes the deck as the
  // recording left it (without conditions), and the deck the route changes must not be set back by it
  // (its next version would then be one its history already holds).
  const recordedOn = { updateDeck: owned[4], restoreDeckVersion: owned[1] } as Partial<Record<string, { id: string }>>;
  // A key made each round by an account of its own (an account holds at most 20 live keys), and a key of
  // the owner's revoked each round.
  // An account erased each round, with a deck of its own (public, 2 tags).
  const keyMakers: { user_id: string; apiKey: string }[] = [];
  const doomedKeys: string[] = [];
  const leaving: { user_id: string; apiKey: string }[] = [];
  for (let k = 0; k <= 2 * COLD_ROUNDS; k++) {
    const maker = await createAccount(`Key maker ${k}`);
    keyMakers.push({ user_id: maker.user_id, apiKey: (await issueKey(maker.user_id, ['keys:manage', 'decks:read'])).apiKey });
    doomedKeys.push((await issueKey(account.user_id, ['decks:read'])).key.key_id);
    const gone = await createAccount(`Leaving ${k}`);
    const goneKey = (await issueKey(gone.user_id, ['decks:write', 'account:delete'])).apiKey;
    await invoke('POST', `/api/v1/users/${gone.user_id}/decks`, goneKey, {
      ...(bodies.createDeck as object),
      visibility: 'public',
      tags: ['a', 'b'],
    });
    leaving.push({ user_id: gone.user_id, apiKey: goneKey });
  }
  const event: EventOf = (route, k) => {
    if (!route) return {};
    const caller =
      route.name === 'createKey'
        ? (keyMakers[k] as { user_id: string; apiKey: string })
        : route.name === 'eraseAccount'
          ? (leaving[k] as { user_id: string; apiKey: string })
          : { user_id: account.user_id, apiKey };
    const method = route.method === 'ANY' ? 'GET' : route.method;
    const recording = k === RECORD_ROUND ? recordedOn[route.name] : undefined;
    const deckId = recording
      ? recording.id
      : historyRoutes.includes(route.name)
        ? history.id
        : route.name === 'deleteDeck'
          ? doomed[k]
          : route.name === 'updateDeck'
            ? (owned[2] as { id: string }).id
            : shared.id;
    // A like changes something each round: each round likes (and then unlikes) a deck of its own.
    const slug =
      route.name === 'likeDeck' || route.name === 'unlikeDeck'
        ? (library[k] as StoredDeck).share_slug
        : historyRoutes.includes(route.name)
          ? history.share_slug
          : shared.share_slug;
    // owned[1] (part 1's PATCHed and restored deck) is at version 2's fields: version 1 differs.
    const version = route.name === 'restoreDeckVersion' ? (recording ? 1 : 1 + (restores++ % 2)) : 2;
    // Its declared example request (lib/routes/route.ts exampleRequest) on the bench's decks and keys.
    const url = exampleRequest(route, {
      version: String(version),
      user_id: caller.user_id,
      key_id: doomedKeys[k] as string,
      deck_id: deckId as string,
      share_slug: slug,
      code: urlCodeOf(parseDeckCode(legalCode(demo, 'soviet', 'usa', 8, 0))),
      event_id: route.name === 'deleteEntry' ? (withdrawn[k] as string) : eventId,
    });
    // A pasted text export; a /deck command, signed as Discord signs it (the key the bench's functions are given).
    if (route.name === 'readPastedCode' || route.name === 'discordInteractions') {
      const raw = Buffer.from(
        route.name === 'readPastedCode'
          ? writeDeckText(parseDeckCode(legalCode(demo, 'soviet', 'usa', 8, 0)), demo, 'en')
          : JSON.stringify(BENCH_DISCORD.command),
      );
      const headers: Record<string, string> =
        route.name === 'readPastedCode'
          ? { 'content-type': 'text/plain' }
          : { 'content-type': 'application/json', ...BENCH_DISCORD.sign(raw) };
      return toEvent({ method, url, headers, body: raw }, route, matchRoute(method, url.split('?')[0] as string).params);
    }
    // A PATCH that changes nothing writes nothing: each round's PATCH sets a sort_order of its own.
    const body =
      route.name === 'updateDeck'
        ? { sort_order: 1_000 + k }
        : route.name === 'updateEvent'
          ? { description: `Round ${k}` }
          : route.name === 'eraseAccount'
            ? { confirm: caller.user_id }
            : bodies[route.name];
    return toEvent(
      {
        method,
        url,
        headers: { authorization: `Bearer ${caller.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: Buffer.from(body ? JSON.stringify(body) : ''),
      },
      route,
      matchRoute(method, url.split('?')[0] as string).params,
    );
  };
  return event;
}

/** How cold starts are run and compared: each case in a new process or a new Lambda environment, rounds side by side. */
function coldRunner(event: EventOf) {
  const slot = (c: ColdCase, k: number) => (c.runtime ? RECORD_ROUND + 1 + k : k);
  /** One cold start under the Runtime API, in a new environment that is shut down after its first invocation. */
  const runtimeRun = async (c: ColdCase, k: number): Promise<ColdStart> => {
    const t0 = performance.now();
    const environment = new Environment(
      {
        name: c.route?.name ?? basename(dirname(c.file)),
        taskRoot: dirname(c.file),
        handler: 'index.handler',
        memoryMb: 1024,
        timeoutS: 10,
        environment: c.env ?? {},
        extensions: false,
      },
      { freeze: false, baseEnvironment: { ...strings(process.env), ...COLD_ENV } },
    );
    await environment.start();
    await environment.ready;
    const t1 = performance.now();
    const answer = await environment.invoke(event(c.route, slot(c, k)), 'arn:aws:lambda:eu-west-1:000000000000:function:bench');
    const t2 = performance.now();
    await environment.shutdown();
    if (answer.error) throw new Error(`${c.file} under the Runtime API: ${answer.error.errorMessage}`);
    return { init: t1 - t0, total: t2 - t0, status: (answer.result as { statusCode?: number } | null)?.statusCode };
  };
  /** One cold start in a new process: import (init) and the first invoke. */
  const coldRun = async (c: ColdCase, k: number): Promise<ColdStart> => {
    if (c.runtime) return runtimeRun(c, k);
    const script = `const t0 = performance.now(); const { handler } = await import(${JSON.stringify(c.file)}); const t1 = performance.now();
      const r = await handler(JSON.parse(process.env.EVENT), { getRemainingTimeInMillis: () => 9000, awsRequestId: 'b', functionName: 'bench' }); const t2 = performance.now();
      console.log(JSON.stringify({ init: t1 - t0, total: t2 - t0, status: r.statusCode }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, ...COLD_ENV, EVENT: JSON.stringify(event(c.route, slot(c, k))), ...c.env },
      encoding: 'utf8',
    });
    return JSON.parse(out.trim().split('\n').at(-1) as string) as ColdStart;
  };
  /**
   * Cold starts of several bundles side by side: k rounds, each running every case once in a rotating
   * order. Medians per case, and each case's ratio to the first as the median of its per-round ratios
   * (a round's runs are seconds apart: pairing them takes out most of this machine's drift).
   */
  const sideBySide = async (cases: ColdCase[]): Promise<Cold[]> => {
    const runs = cases.map(() => [] as ColdStart[]);
    for (let k = 0; k < COLD_ROUNDS; k++)
      for (let j = 0; j < cases.length; j++) {
        const i = (j + k) % cases.length;
        (runs[i] as ColdStart[]).push(await coldRun(cases[i] as ColdCase, k));
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
  return sideBySide;
}

/** How many times b's cold start a's is: the median of the per-round ratios. */
const paired = (a: Cold, b: Cold) =>
  pct(
    a.runs.map((x, k) => x.total / (b.runs[k] as ColdStart).total),
    50,
  );

/** A row of part 3's table: a bundle's size, its cold start beside the baseline's, and notes. */
const row = (name: string, catalogue: string, file: string, m: Cold, b: Cold, extra = '', raw = '', runtime = '') => [
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
  runtime,
  extra,
];

/** What part 3 measures of a route: its bundle, the bundle of its calls alone, each beside the baseline in the same rounds. */
interface RouteMeasure {
  bundle: (entry: string, name: string) => Promise<string>;
  rawBundle: (name: string, calls: Call[]) => Promise<string>;
  event: EventOf;
  sideBySide: (cases: ColdCase[]) => Promise<Cold[]>;
  baseCase: ColdCase;
  demoFile: string;
  realFile: string;
  /** The hello-world bundle: the baseline under the Runtime API of a route that makes no DynamoDB call. */
  helloFile: string;
}

async function measureRoute(route: Route, { bundle, rawBundle, event, sideBySide, baseCase, demoFile, realFile, helloFile }: RouteMeasure) {
  const file = await bundle(resolve(ROOT, route.handler), route.name);
  // The files a route ships beside its bundle (CDK copies them into the asset), found by LAMBDA_TASK_ROOT.
  for (const { from, to } of shippedFiles(route.files)) {
    mkdirSync(dirname(join(dirname(file), to)), { recursive: true });
    copyFileSync(resolve(ROOT, from), join(dirname(file), to));
  }
  // Its fonts cut to the demo catalogue's characters, as CDK cuts them to the deployed one's.
  cutFonts(demoFile, dirname(file), route.subsetFonts);
  const env = {
    ...(route.catalogue ? { CATALOGUE_FILE: demoFile } : {}),
    ...(route.files ? { LAMBDA_TASK_ROOT: dirname(file) } : {}),
    ...(route.name === 'discordInteractions' ? { DISCORD_PUBLIC_KEY: BENCH_DISCORD.publicHex } : {}),
  };
  // Each bundle against the baseline measured in the same rounds (the machine drifts between routes).
  const withReal = route.catalogue && hasRealCatalogue;
  const calls = await recordCalls(route, event(route, RECORD_ROUND) as APIGatewayProxyEventV2);
  const rawFile = calls.length ? await rawBundle(route.name, calls) : undefined;
  const cases: Record<string, ColdCase | undefined> = {
    base: baseCase,
    route: { file, route, env },
    raw: rawFile ? { file: rawFile } : undefined,
    real: withReal ? { file, route, env: { ...env, CATALOGUE_FILE: realFile } } : undefined,
    // The route and its calls alone again, each in a Lambda environment under the Runtime API.
    routeRuntime: { file, route, env, runtime: true },
    rawRuntime: rawFile ? { file: rawFile, runtime: true } : undefined,
    // A route with no DynamoDB call (a code's facts, a Discord answer) beside a hello world under the Runtime API.
    helloRuntime: rawFile ? undefined : { file: helloFile, runtime: true },
  };
  const names = Object.keys(cases).filter((n) => cases[n]);
  const measured = await sideBySide(names.map((n) => cases[n] as ColdCase));
  const of = (n: string) => measured[names.indexOf(n)];
  const [b, m, raw, real, mRuntime, rawRuntime, helloRuntime] = [
    'base',
    'route',
    'raw',
    'real',
    'routeRuntime',
    'rawRuntime',
    'helloRuntime',
  ].map(of);
  return row(
    route.name,
    route.catalogue ? 'demo' : '-',
    file,
    m as Cold,
    b as Cold,
    real ? `real: ${real.total.toFixed(1)} (${paired(real, m as Cold).toFixed(2)}× demo)` : '',
    raw
      ? `${raw.total.toFixed(1)}: ${paired(raw, b as Cold).toFixed(2)}× GetItem; the route ${paired(m as Cold, raw).toFixed(2)}× them`
      : '',
    `${(mRuntime as Cold).init.toFixed(1)} / ${(mRuntime as Cold).total.toFixed(1)} (p99 ${pct(
      (mRuntime as Cold).runs.map((r) => r.total),
      99,
    ).toFixed(
      1,
    )})${rawRuntime ? `: the route ${paired(mRuntime as Cold, rawRuntime).toFixed(2)}× its calls (${rawRuntime.total.toFixed(1)})` : ''}${
      helloRuntime
        ? `: ${paired(mRuntime as Cold, helloRuntime).toFixed(2)}× a hello world (${helloRuntime.total.toFixed(1)}, p99 ${pct(
            helloRuntime.runs.map((r) => r.total),
            99,
          ).toFixed(1)})`
        : ''
    }`,
  );
}

export async function coldStarts(bench: Bench) {
  const { work } = bench;
  const bundle = bundler(work);
  const baseline = join(work, 'getitem.ts');
  writeFileSync(
    baseline,
    bareSource(
      ['GetCommand'],
      `const r = await doc.send(new GetCommand({ TableName: ${JSON.stringify(tableName(DECKS))}, Key: ${JSON.stringify(deckKey('x', 'y'))} })); return { statusCode: r.Item ? 200 : 404, body: '' };`,
    ),
  );
  const hello = join(work, 'hello.ts');
  writeFileSync(hello, "export const handler = async () => ({ statusCode: 200, body: 'hello' });\n");
  // The same DynamoDB calls as a route's request, in a bundle that makes only them (a plain document
  // client, no handler): how much of a route's cold start is its calls, how much the rest.
  const rawBundle = async (name: string, calls: Call[]) => {
    const source = join(work, `${name}-raw.ts`);
    writeFileSync(source, replaySource(calls));
    return bundle(source, `${name}-raw`);
  };
  const event = await coldEvents(bench);
  const sideBySide = coldRunner(event);
  const demoFile = join(work, 'demo.json');
  writeFileSync(demoFile, compileCatalogue(demoCatalogue()));
  const realFile = join(work, 'real.json');
  if (hasRealCatalogue) writeFileSync(realFile, compileCatalogue(loadCatalogueFile(REAL_CATALOGUE_FILE)));
  const baseCase: ColdCase = { file: await bundle(baseline, 'getitem') };
  // The same GetItem bundle without infra/aliases: what those substitutions take off a cold start.
  const publishedCase: ColdCase = { file: await bundle(baseline, 'getitem-sdk', {}) };
  const [base, published, hi] = (await sideBySide([baseCase, publishedCase, { file: await bundle(hello, 'hello') }])) as [Cold, Cold, Cold];
  const bundles: (string | number)[][] = [
    row('GetItem baseline', '-', baseCase.file, base, base),
    row('GetItem, SDK as published', '-', publishedCase.file, published, base, 'no infra/aliases'),
    row('hello world', '-', join(work, 'hello', 'index.mjs'), hi, base),
  ];
  for (const route of ROUTES as readonly Route[]) {
    if (ONLY_ROUTES && !ONLY_ROUTES.has(route.name)) continue;
    if (
      !ONLY_ROUTES &&
      QUICK &&
      ![
        'listDecks',
        'createDeck',
        'replaceCards',
        'deleteDeck',
        'likeDeck',
        'searchDecks',
        'readDeckFeed',
        'readSharedDeck',
        'diffDecks',
        'listDeckVersions',
        'restoreDeckVersion',
        'readSharePage',
        'readDeckImage',
        'readCode',
        'readCodeImage',
        'readCodePage',
        'readCodeText',
        'readPastedCode',
        'discordInteractions',
        'readMetaCards',
        'readMetaFactions',
        'readBulkData',
        'createKey',
        'exportAccount',
        'eraseAccount',
        'listCards',
        'listLanguages',
        'putEntry',
      ].includes(route.name)
    )
      continue;
    bundles.push(
      await measureRoute(route, {
        bundle,
        rawBundle,
        event,
        sideBySide,
        baseCase,
        demoFile,
        realFile,
        helloFile: join(work, 'hello', 'index.mjs'),
      }),
    );
  }
  console.log(
    `\n3. Bundles (CDK esbuild settings): size, and init + first invoke against the GetItem-only bundle run in the same rounds; and the route and its calls alone each in a Lambda environment under the Runtime API (aws-lambda-ric: start to Init Duration / to the first response) (${COLD_ROUNDS} rounds: medians, ms; ratios: medians of the rounds' ratios)`,
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
      'Runtime API: init / init + 1st (p99)',
      'real catalogue',
    ],
    bundles,
  );
}
