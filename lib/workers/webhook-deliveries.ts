/**
 * The deliveries worker (contract §13.5): the deliveries' queue's messages, a batch at once, each an attempt of its
 * delivery (lib/webhooks/deliver.ts). A message whose handling failed (the store, the queue) is named in the batch's
 * answer and comes again after the queue's visibility timeout; one that is no delivery's is dropped.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '#logger';
import { deliver } from '#webhooks/deliver.ts';
import { queuedOf } from '#webhooks/queue.ts';

export async function handleDeliveries(event: SQSEvent): Promise<SQSBatchResponse> {
  const failed = await Promise.all(
    event.Records.map(async (record) => {
      const message = queuedOf(record.body);
      if (!message) {
        logger.error('webhook deliveries: a message that names no delivery was dropped', { body: record.body.slice(0, 300) });
        return undefined;
      }
      try {
        await deliver(message);
        return undefined;
      } catch (e) {
        logger.error('webhook deliveries: a delivery could not be handled; it comes again', { message, error: (e as Error).message });
        return record.messageId;
      }
    }),
  );
  return { batchItemFailures: failed.filter((id) => id !== undefined).map((itemIdentifier) => ({ itemIdentifier })) };
}
