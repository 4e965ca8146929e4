/**
 * Part 4: the views workload — shared reads over the library's public decks (Zipf), their access-log
 * lines counted and folded by the workers as on AWS: items written per view, and views counted against
 * views served.
 */

import type { Route } from '#routes';
import { VIEW_SUBSCRIPTION, type Worker, workerNamed } from '#routes/workers.ts';
import { dynamoClient } from '#store/client.ts';
import { DECKS, tableName } from '#store/tables.ts';
import { storedViews } from '#store/view-counts.ts';
import { countViews, encodeLogs, logsDelivery } from '#workers/access-log-views.ts';
import { handleStoreChanges } from '#workers/store-changes.ts';
import { handleViewLog } from '#workers/view-log.ts';
import { accessLine } from '../../infra/access-log-fields.ts';
import { startStreamPoller } from '../../infra/local/streams.ts';
import { recordDynamo } from '../../test/support/dynamo-recorder.ts';
import { type Bench, invoke, QUICK, table } from './common.ts';
import { tallyOf } from './costs.ts';

export async function views({ dynamoEndpoint, library }: Bench) {
  const recorder = recordDynamo({ capacity: true });
  const reads = QUICK ? 2_000 : 10_000;
  const weights = library.map((_, r) => 1 / (r + 1));
  const sum = weights.reduce((a, b) => a + b, 0);
  const perDeck = weights.map((w) => Math.max(1, Math.round((w / sum) * reads)));
  const served = perDeck.reduce((a, b) => a + b, 0);
  const order = library.flatMap((d, i) => Array<string>(perDeck[i] as number).fill(d.share_slug));
  // Views are counted from the access log: its lines of the reads, delivered to countViews in batches
  // (one every 5 s at 200 reads a second: 1,000 lines), then the view log's worker adds them to their
  // decks' counts a window at a time and the store-change worker folds them. Both follow the table's stream
  // from here on, the view log's worker with one window for the workload.
  const follow = (worker: Worker, invoke: typeof handleStoreChanges, batchingWindowMs: number) =>
    startStreamPoller(
      {
        endpoint: dynamoEndpoint,
        tableName: tableName(DECKS),
        worker,
        invoke,
        intervalMs: 50,
        startAt: 'LATEST',
        batchingWindowMs,
      },
      dynamoClient(),
    );
  const pollers = [
    await follow(workerNamed('storeChanges'), handleStoreChanges, 0),
    await follow(workerNamed('viewLog'), handleViewLog, 3_000),
  ];
  recorder.reset();
  for (let i = 0; i < order.length; i += 25)
    await Promise.all(order.slice(i, i + 25).map((slug) => invoke('GET', `/api/v1/decks/${slug}`)));
  const whileReading = recorder.written();
  recorder.reset();
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
    await countViews(
      encodeLogs(logsDelivery({ owner: 'bench', logGroup: 'access', logStream: 'bench' }, VIEW_SUBSCRIPTION.name, logEvents)),
    );
  }
  // Until the workers have added and folded what the batches moved: no write for two seconds.
  for (let last = -1; recorder.written() !== last; ) {
    last = recorder.written();
    await new Promise((r) => setTimeout(r, 2_000));
  }
  await Promise.all(pollers.map((p) => p.stop()));
  const batch = tallyOf(recorder.calls);
  const counted = (await Promise.all(library.map((d) => storedViews(d.share_slug)))).reduce((n, v) => n + v, 0);
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
  recorder.stop();
}
