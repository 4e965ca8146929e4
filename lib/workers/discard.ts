/**
 * Work a stream worker gives up on (batch.ts): work that failed for good (faults.ts `isPermanent`: the store
 * refused it as invalid, or the program failed on the data itself) is named in the log and sent to the
 * discarded-changes queue (DISCARDED_QUEUE_URL: the stack's queue, alarmed; locally infra/local/queue.ts),
 * and the batch goes on — one record that cannot be applied never holds its shard's later changes. What was
 * dropped is repaired at rest: `deckctl meta recount` for what the library plays, `deckctl search reindex`
 * for a deck's search entries (docs/operations.md, "Discarded changes").
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { logger } from '#logger';
import { sqsClient } from '#store/sqs.ts';

/** What the queue holds of a piece of work given up on. */
export interface Discarded {
  worker: string;
  /** The stream record it came from (its sequence number) and the item it was for. */
  record: string;
  item: string;
  error: { name: string; message: string };
  at: string;
}

/** Names the work in the log and sends it to the discarded-changes queue; throws when the queue cannot take it (the batch is then retried). */
export async function discard(worker: string, work: { first: string; what: string }, error: unknown): Promise<void> {
  const e = error as Error;
  const discarded: Discarded = {
    worker,
    record: work.first,
    item: work.what,
    error: { name: String(e?.name ?? 'Error'), message: String(e?.message ?? error).slice(0, 1_000) },
    at: new Date().toISOString(),
  };
  logger.error(`${worker}: a change that cannot be applied was given up on (discarded-changes queue)`, { discarded });
  const queue = process.env.DISCARDED_QUEUE_URL;
  if (!queue) throw new Error('DISCARDED_QUEUE_URL is not set: the change is kept for a retry');
  await sqsClient().send(new SendMessageCommand({ QueueUrl: queue, MessageBody: JSON.stringify(discarded) }));
}
