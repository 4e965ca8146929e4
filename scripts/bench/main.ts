/**
 * `npm run bench` (`-- --quick` for a short run; `-- --routes a,b` for part 3 of those routes alone): what a request costs, measured side by side in one
 * run on a DynamoDB Local of its own (this machine is shared and noisy: compare the ratios, not the
 * absolute times). Prints one table per part, each a module of its own over the one DynamoDB recorder
 * the tests use too (test/support/dynamo-recorder.ts):
 *   1. costs.ts — per route: DynamoDB operations, items read and written, capacity units and the
 *      on-demand price per million requests from them;
 *   2. latency.ts — per route: the in-process handler's p50/p99 and CPU against the raw SDK calls of
 *      the same operations, interleaved;
 *   3. cold-start.ts — per function bundle, built with the CDK's esbuild settings: size, and init +
 *      first invoke against a GetItem-only bundle, a hello-world, and the route's own calls replayed alone;
 *   4. views.ts — 10,000 shared reads over 1,000 public decks (Zipf), items written per view and views
 *      counted against views served.
 * `npm run bench -- --scale [--sizes 1000,100000,1000000]` runs scale.ts instead: the store at each size of
 * library and contract §11.1's budgets (docs/data-model.md keeps its tables).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, issueKey } from '#auth/accounts.ts';
import { SCOPES } from '#auth/keys.ts';
import { logger } from '#logger';
import { dynamoClient } from '#store/client.ts';
import { createDeck } from '#store/decks.ts';
import { ensureTables, startDynamoLocal } from '../../infra/local/dynamodb.ts';
import { freePort } from '../../test/support/runtime.ts';
import { coldStarts } from './cold-start.ts';
import { type Bench, invoke, ONLY_ROUTES, ownedDeckBody, publicDeck, QUICK } from './common.ts';
import { costs } from './costs.ts';
import { latency } from './latency.ts';
import { runScale } from './scale.ts';
import { views } from './views.ts';

async function main() {
  const dynamo = await startDynamoLocal(await freePort());
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  logger.setLogLevel('ERROR');
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  const setup = dynamoClient();
  await ensureTables(setup);
  setup.destroy();
  const work = mkdtempSync(join(tmpdir(), 'deck-library-bench-'));
  try {
    const account = await createAccount('Bench Owner');
    const { apiKey } = await issueKey(account.user_id, [...SCOPES]);
    const decksPath = `/api/v1/users/${account.user_id}/decks`;
    const owned: { id: string; share_slug: string }[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await invoke('POST', decksPath, apiKey, ownedDeckBody(i));
      owned.push(JSON.parse(r.body as string).data);
    }
    // A history of 25 versions: more than a page of 20.
    const history = owned[3] as { id: string; share_slug: string };
    for (let v = 1; v < 25; v++) await invoke('PATCH', `${decksPath}/${history.id}`, apiKey, { sort_order: v });
    const library = Array.from({ length: QUICK ? 200 : 1_000 }, (_, i) => publicDeck(i));
    for (let i = 0; i < library.length; i += 20) await Promise.all(library.slice(i, i + 20).map((d) => createDeck(d)));
    const bench: Bench = {
      dynamoEndpoint: dynamo.endpoint,
      work,
      account,
      apiKey,
      decksPath,
      owned,
      library,
      shared: owned[0] as { id: string; share_slug: string },
      history,
    };
    if (!ONLY_ROUTES) {
      await costs(bench);
      await latency(bench);
    }
    await coldStarts(bench);
    if (!ONLY_ROUTES) await views(bench);
  } finally {
    rmSync(work, { recursive: true, force: true });
    await dynamo.stop();
  }
}

if (process.argv.includes('--scale')) await runScale(process.argv);
else await main();
