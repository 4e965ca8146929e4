/**
 * The service's retry policy for store calls (contract §9.1), in place of the SDK's own:
 *   - what is retried: what DynamoDB documents as retryable (faults.ts) — throttling, transaction
 *     conflicts, internal errors and 5xx, refused or reset connections, timeouts — and nothing else;
 *   - after a failure that may have applied the call (a timeout or a reset once the request was sent, a
 *     5xx), only a call that is safe to repeat is retried: reads, conditional writes, transactions (which
 *     carry a client token: client.ts) — every write of the service today; a write that is not (an
 *     unconditional ADD) would not be retried after a failure that may have applied it;
 *   - how: full-jitter exponential backoff (a random wait up to 25 ms × 2^attempt, at most 1 s), at most
 *     MAX_ATTEMPTS attempts, and never past the request's deadline: a call that cannot be retried in
 *     time fails at once, and the request answers 503 (envelope.ts) within its budget;
 *   - every throttling, 5xx or network failure is counted (the StoreErrors metric, lib/metrics.ts), so
 *     that an alarm sees the store struggling before any request fails;
 *   - no retry quota: on Lambda an environment serves one request at a time, the deadline bounds each
 *     request's retries, and the jitter spreads them. The SDK's quota (500 tokens, 10 a timeout) drained
 *     under a burst of timeouts that were the pool's queue, not the store, and then refused
 *     retries to requests that needed one.
 */
import { count } from '#metrics';
import type { Deadline } from './deadline.ts';
import { isAmbiguous, isRetryable, isStoreError } from './faults.ts';

export const RETRY = { maxAttempts: 8, baseMs: 25, capMs: 1_000 } as const;

/** The wait before attempt `attempt + 1` (attempt ≥ 1): full jitter over an exponential ceiling. */
export const backoff = (attempt: number, random: () => number = Math.random): number =>
  random() * Math.min(RETRY.capMs, RETRY.baseMs * 2 ** (attempt - 1));

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export interface RetryOptions {
  /** Safe to repeat after a failure that may have applied it. */
  idempotent: boolean;
  /** The request's deadline, if the call runs within one. */
  deadline?: Deadline;
}

/** Runs `call` until it succeeds, fails for good, or may not be retried any more (attempts, deadline, ambiguity). */
export async function withRetries<T>(call: () => Promise<T>, { idempotent, deadline }: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      // Every throttling, 5xx or network failure is counted, retried or not: the alarm on the store reads it.
      if (isStoreError(error)) count('StoreErrors', {});
      const again = attempt < RETRY.maxAttempts && isRetryable(error) && (idempotent || !isAmbiguous(error)) && !deadline?.signal.aborted;
      if (!again) throw error;
      const wait = backoff(attempt);
      // No time for the wait and a try after it: fail now, so the request answers within its budget.
      if (deadline && Date.now() + wait >= deadline.at) throw error;
      await sleep(wait, deadline?.signal);
      if (deadline?.signal.aborted) throw error;
    }
  }
}
