/**
 * The retry policy (lib/store/retry.ts) and what a store error means (lib/store/faults.ts), without a store:
 * which answers are retried, which may have applied the call, the backoff's bounds, the deadline.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { isAmbiguous, isRetryable, isStoreUnavailable } from '#store/faults.ts';
import { backoff, RETRY, withRetries } from '#store/retry.ts';

const named = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...extra });
const cancelled = (...codes: string[]) => named('TransactionCanceledException', { CancellationReasons: codes.map((Code) => ({ Code })) });
const network = (code: string) => Object.assign(new Error(code), { code });

describe('what a store error means', () => {
  it.each([
    ['ThrottlingException', named('ThrottlingException'), true, false],
    ['ProvisionedThroughputExceededException', named('ProvisionedThroughputExceededException'), true, false],
    ['RequestLimitExceeded', named('RequestLimitExceeded'), true, false],
    ['TransactionConflictException', named('TransactionConflictException'), true, false],
    ['a transaction cancelled for a conflict', cancelled('None', 'TransactionConflict'), true, false],
    ['a transaction cancelled for throttling', cancelled('ThrottlingError', 'None'), true, false],
    ['InternalServerError (may have applied)', named('InternalServerError', { $fault: 'server' }), true, true],
    ['any 5xx (may have applied)', named('Whatever', { $metadata: { httpStatusCode: 502 } }), true, true],
    ['a reset connection (may have applied)', network('ECONNRESET'), true, true],
    [
      'a request timeout (may have applied)',
      named('TimeoutError', { message: 'a request has exceeded the configured 2500 ms requestTimeout' }),
      true,
      true,
    ],
    ['a refused connection (never sent)', network('ECONNREFUSED'), true, false],
    [
      'a connection that was never made (never sent)',
      named('TimeoutError', { message: 'the request socket did not establish a connection with the server within 1000 ms' }),
      true,
      false,
    ],
    ['a reset wrapped as a cause', Object.assign(new Error('wrapped'), { cause: network('ECONNRESET') }), true, true],
  ])('%s: retryable, %s ambiguous', (_name, error, retryable, ambiguous) => {
    expect(isRetryable(error)).toBe(retryable);
    expect(isAmbiguous(error)).toBe(ambiguous);
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it.each([
    ['a failed condition', named('ConditionalCheckFailedException')],
    ['a transaction cancelled by a condition', cancelled('ConditionalCheckFailed', 'TransactionConflict')],
    ['a validation error (a bug)', named('ValidationException')],
    ['a denied action', named('AccessDeniedException')],
    ['anything else', new TypeError('x is undefined')],
  ])('%s: not retried, not a 503', (_name, error) => {
    expect(isRetryable(error)).toBe(false);
    expect(isStoreUnavailable(error)).toBe(false);
  });

  it('the deadline: a 503, and not retried (no time left)', () => {
    const aborted = named('AbortError');
    expect([isRetryable(aborted), isStoreUnavailable(aborted)]).toEqual([false, true]);
  });
});

describe('the backoff', () => {
  it('full jitter under an exponential ceiling: 0 to min(1 s, 25 ms × 2^(attempt-1))', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const wait = backoff(attempt, () => r);
        return wait >= 0 && wait <= Math.min(RETRY.capMs, RETRY.baseMs * 2 ** (attempt - 1));
      }),
    );
    expect(backoff(1, () => 0.999)).toBeLessThan(25);
    expect(backoff(20, () => 0.999)).toBeLessThan(1_000);
  });
});

describe('withRetries', () => {
  const failing = (errors: unknown[], value = 'done') => {
    let calls = 0;
    const call = async () => {
      const e = errors[calls++];
      if (e) throw e;
      return value;
    };
    return { call, calls: () => calls };
  };

  it('retries what DynamoDB says to retry, until it succeeds', async () => {
    const f = failing([named('ThrottlingException'), cancelled('TransactionConflict'), network('ECONNRESET')]);
    expect(await withRetries(f.call, { idempotent: true })).toBe('done');
    expect(f.calls()).toBe(4);
  });

  it('stops after the most attempts, with the last error', async () => {
    const f = failing(Array.from({ length: 20 }, () => named('ThrottlingException')));
    await expect(withRetries(f.call, { idempotent: true })).rejects.toThrow('ThrottlingException');
    expect(f.calls()).toBe(RETRY.maxAttempts);
  });

  it('a call that must not repeat is retried only when the store said it was not applied', async () => {
    const definite = failing([named('ThrottlingException')]);
    expect(await withRetries(definite.call, { idempotent: false })).toBe('done');
    const ambiguous = failing([network('ECONNRESET')]);
    await expect(withRetries(ambiguous.call, { idempotent: false })).rejects.toThrow('ECONNRESET');
    expect(ambiguous.calls()).toBe(1);
  });

  it('never retries past the deadline: with no time left for a wait and a try, the error is thrown at once', async () => {
    // On a clock of the test's own (not the machine's, whose load is no measure): the waits it takes, and when it gives up.
    vi.useFakeTimers({ now: 1_000 });
    try {
      const f = failing(Array.from({ length: 20 }, () => named('ThrottlingException')));
      const deadline = { signal: new AbortController().signal, at: Date.now() + 60 };
      const thrown = expect(withRetries(f.call, { idempotent: true, deadline })).rejects.toThrow('ThrottlingException');
      await vi.runAllTimersAsync();
      await thrown;
      // No wait ran past the deadline, and it gave up before its attempts ran out.
      expect(Date.now()).toBeLessThanOrEqual(deadline.at);
      expect(f.calls()).toBeLessThan(RETRY.maxAttempts);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an error that is not the store’s is thrown at once', async () => {
    const f = failing([named('ConditionalCheckFailedException')]);
    await expect(withRetries(f.call, { idempotent: true })).rejects.toThrow('ConditionalCheckFailedException');
    expect(f.calls()).toBe(1);
  });
});
