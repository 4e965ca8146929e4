/**
 * The request's deadline, as an AbortSignal every store call of that request carries (client.ts):
 * when the HTTP layer's time guard gives up on a request, its DynamoDB calls stop too, so that no
 * call of a request that was answered 503 lingers on. Outside a request there is no signal.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<AbortSignal>();

export const withDeadline = <T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> => current.run(signal, fn);
export const deadlineSignal = (): AbortSignal | undefined => current.getStore();

/** Runs `fn` outside any request's deadline (work a request started but does not wait for). */
export const outsideRequest = <T>(fn: () => T): T => current.exit(fn);
