/**
 * The request's deadline, as an AbortSignal every store call of that request carries (client.ts), and
 * the time it falls at (retries stop before it): when the HTTP layer's time guard gives up on a
 * request, its DynamoDB calls stop too, so that no call of a request that was answered 503 lingers on.
 * Outside a request there is no deadline.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Deadline {
  signal: AbortSignal;
  /** When the request's budget runs out (epoch ms). */
  at: number;
}

const current = new AsyncLocalStorage<Deadline>();

export const withDeadline = <T>(deadline: Deadline, fn: () => Promise<T>): Promise<T> => current.run(deadline, fn);
export const currentDeadline = (): Deadline | undefined => current.getStore();
