/**
 * A queue's worker on the local runtime (lib/routes/workers.ts QueueWorker), as its SQS event source mapping runs it:
 * a message, once its delay has passed, handed to the worker in an SQS event (batches of up to its batchSize, at most
 * maxConcurrency invocations at once); one the worker names as failed (batchItemFailures), or all of a batch that
 * throws, comes again after the visibility timeout (`retryMs`). What it does not do: a queue's retention, a
 * dead-letter queue (a message fails at most `maxReceives` times, then is logged and dropped).
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueueWorker } from '#routes/workers.ts';
import { LOCAL_REGION } from '#store/local.ts';
import type { Deliver } from './queue.ts';

interface Held {
  id: string;
  body: string;
  receives: number;
}

export function startQueueConsumer(o: {
  worker: QueueWorker;
  invoke: (event: SQSEvent) => Promise<SQSBatchResponse | undefined>;
  retryMs: number;
  maxReceives?: number;
  log: (message: string) => void;
}): { deliver: Deliver; stop: () => Promise<void> } {
  const timers = new Set<NodeJS.Timeout>();
  const ready: Held[] = [];
  const running = new Set<Promise<void>>();
  let stopped = false;
  const record = (m: Held): SQSRecord => ({
    messageId: m.id,
    receiptHandle: m.id,
    body: m.body,
    attributes: {
      ApproximateReceiveCount: String(m.receives),
      SentTimestamp: String(Date.now()),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:${LOCAL_REGION}:000000000000:webhook-deliveries`,
    awsRegion: LOCAL_REGION,
  });
  const later = (m: Held, ms: number) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      ready.push(m);
      pump();
    }, ms);
    timers.add(timer);
  };
  const run = async (batch: Held[]) => {
    let failed: Set<string>;
    try {
      const answer = await o.invoke({ Records: batch.map((m) => ({ ...record({ ...m, receives: m.receives + 1 }) })) });
      failed = new Set((answer?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (e) {
      o.log(`${o.worker.name} failed: ${(e as Error).message}`);
      failed = new Set(batch.map((m) => m.id));
    }
    for (const m of batch.filter((b) => failed.has(b.id))) {
      const again = { ...m, receives: m.receives + 1 };
      if (again.receives >= (o.maxReceives ?? 10)) o.log(`${o.worker.name}: message ${m.id} failed ${again.receives} times; dropped`);
      else later(again, o.retryMs);
    }
  };
  const pump = () => {
    while (!stopped && ready.length > 0 && running.size < o.worker.maxConcurrency) {
      const batch = ready.splice(0, o.worker.batchSize);
      const p = run(batch).finally(() => {
        running.delete(p);
        pump();
      });
      running.add(p);
    }
  };
  return {
    deliver: ({ id, body, delaySeconds }) => later({ id, body, receives: 0 }, delaySeconds * 1000),
    stop: async () => {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      await Promise.all(running);
    },
  };
}
