/**
 * A signed catalogue read the answer needs (an event's card pool: there is no other to use): it waits as every store
 * call of a request does (client.ts) — an attempt may take what is left of the request's time, what DynamoDB says to
 * retry is retried (retry.ts), and the request's deadline ends it. Read at a glance (one attempt of 1 s), the pool's
 * Query timed out beside the test suite's load and a submission answered 503 from a healthy store.
 */
import type { Wait } from './catalogue-read.ts';
import { attemptMs, currentDeadline } from './deadline.ts';
import { withRetries } from './retry.ts';
import { STORE_TIMEOUTS } from './sdk-config.ts';

export const needed: Wait = (attempt) => {
  const deadline = currentDeadline();
  return withRetries(
    () => {
      const bound = AbortSignal.timeout(deadline ? attemptMs(deadline) : STORE_TIMEOUTS.requestTimeout);
      return attempt(deadline ? AbortSignal.any([deadline.signal, bound]) : bound).catch((e: unknown) => {
        // The request's time ran out (its guard aborts with a TimeoutError of its own): an abort, as the SDK's calls
        // say it — not a store timeout, neither retried nor counted as the store's failure.
        if (deadline?.signal.aborted) throw Object.assign(new Error('the request ran out of time'), { name: 'AbortError', cause: e });
        throw e;
      });
    },
    { idempotent: true, deadline },
  );
};
