/**
 * The request's deadline, as an AbortSignal every store call of that request carries (client.ts), and
 * the time it falls at (retries stop before it): when the HTTP layer's time guard gives up on a
 * request, its DynamoDB calls stop too, so that no call of a request that was answered 503 lingers on.
 * Outside a request there is no deadline.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { STORE_TIMEOUTS } from './sdk-config.ts';

export interface Deadline {
  signal: AbortSignal;
  /** When the request's budget runs out (epoch ms). */
  at: number;
}

const current = new AsyncLocalStorage<Deadline>();

export const withDeadline = <T>(deadline: Deadline, fn: () => Promise<T>): Promise<T> => current.run(deadline, fn);
export const currentDeadline = (): Deadline | undefined => current.getStore();

/**
 * How long an attempt made within a request may wait for its answer: what is left of the request's time (at
 * least an attempt's own bound). A store slow because calls queue at it (a burst) still does the work it was
 * given; an attempt given up at STORE_TIMEOUTS' 2.5 s and sent again gave it the same work twice, and the queue
 * grew with the retries — 100 creates at once sent 246–279 transactions and 69–90 of them answered 503 from a
 * healthy DynamoDB Local (with this, 103 transactions and 100 × 201). A stalled store still answers
 * 503 at the request's deadline; outside a request (workers, start-up) an attempt keeps STORE_TIMEOUTS' bound.
 */
export const attemptMs = (deadline: Deadline) => Math.max(STORE_TIMEOUTS.requestTimeout, deadline.at - Date.now());
