/**
 * The webhook deliveries' queue (Amazon SQS; locally infra/local/queue.ts): a message names a delivery and the version
 * of it it is for; a wait of at most SQS's 15 minutes is its own delay, a longer one a chain of them (the worker sends
 * a message again until the delivery's next try is due: lib/webhooks/deliver.ts).
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '#store/sqs.ts';

/** What a message names: the delivery, and the version of it it was sent for (an older one is dropped). */
export interface QueuedDelivery {
  user_id: string;
  webhook_id: string;
  delivery_id: string;
  version: number;
}

/** SQS's longest delay of a message (DelaySeconds: 0 to 900). */
export const MAX_DELAY_SECONDS = 900;

/** Sends a delivery's message, delayed up to `delaySeconds` (at most MAX_DELAY_SECONDS). */
export async function sendDelivery(message: QueuedDelivery, delaySeconds = 0): Promise<void> {
  const queue = process.env.DELIVERIES_QUEUE_URL;
  if (!queue) throw new Error('DELIVERIES_QUEUE_URL is not set');
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: queue,
      MessageBody: JSON.stringify(message),
      DelaySeconds: Math.max(0, Math.min(MAX_DELAY_SECONDS, Math.ceil(delaySeconds))),
    }),
  );
}

/** A message's body read: the delivery it names, or none when it is not one. */
export function queuedOf(body: string): QueuedDelivery | undefined {
  try {
    const m = JSON.parse(body) as Partial<QueuedDelivery>;
    return typeof m.user_id === 'string' &&
      typeof m.webhook_id === 'string' &&
      typeof m.delivery_id === 'string' &&
      typeof m.version === 'number'
      ? (m as QueuedDelivery)
      : undefined;
  } catch {
    return undefined;
  }
}
