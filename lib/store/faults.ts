/**
 * What a store error means (contract §8.1, §9.1), read from the error itself:
 *   - `retryable`: DynamoDB documents the answer as one to retry — throttling, a transaction conflict,
 *     an internal or unavailable server, any 5xx — or the network failed (refused, reset, timed out).
 *   - `ambiguous`: of those, the ones after which the call may have been applied (the request was sent
 *     and no answer came back, or the server failed while handling it). Only a call that is safe to
 *     repeat (idempotent) is retried after one of these.
 *   - `isStoreUnavailable`: the store is busy, unreachable or slow — 503 with Retry-After, never a 500.
 * Anything else (a bug, a denied action, a failed condition) is neither.
 */
const THROTTLED = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  // An item is held by a running transaction: DynamoDB says to retry (not applied).
  'TransactionConflictException',
  // A transaction with the same client token is still running (not applied by this call).
  'TransactionInProgressException',
]);
const SERVER = new Set(['InternalServerError', 'ServiceUnavailable', 'ServiceUnavailableException']);
/** The SDK's and the request deadline's own: a request or connection timeout, an abort. */
const TIMEOUTS = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'AbortError']);
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
]);
/** Network failures before anything was sent: the call was certainly not applied. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $fault?: string;
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
}

/** The error and its causes (an SDK error may wrap the network error that caused it). */
function* chain(error: unknown): Generator<SdkError> {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 4; e = (e as SdkError).cause, depth++) yield e as SdkError;
}

/** The SDK's connection timeout: the socket never connected, so nothing was sent. */
const notConnected = (e: SdkError) => e.name === 'TimeoutError' && /did not establish a connection/.test(e.message ?? '');

/** Cancellation reasons of a transaction that mean "not applied, try again" (DynamoDB's TransactWriteItems documentation). */
export const RETRY_REASONS = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/** The reason codes of a cancelled transaction; undefined for any other error. */
export function cancellationCodes(e: unknown): string[] | undefined {
  if ((e as Error | undefined)?.name !== 'TransactionCanceledException') return undefined;
  return ((e as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}

/** The store said, or the network showed, that trying again may succeed. */
export function isRetryable(error: unknown): boolean {
  const codes = cancellationCodes(error);
  // A cancelled transaction: retry it when no condition failed and some item was held or throttled.
  if (codes) return !codes.includes('ConditionalCheckFailed') && codes.some((c) => RETRY_REASONS.has(c));
  for (const e of chain(error)) {
    if (e.name === 'AbortError') return false; // the request's deadline: no time left to retry in
    if (THROTTLED.has(e.name ?? '') || SERVER.has(e.name ?? '') || TIMEOUTS.has(e.name ?? '') || NETWORK.has(e.code ?? '')) return true;
    if (e.$fault === 'server' || (e.$metadata?.httpStatusCode ?? 0) >= 500) return true;
  }
  return false;
}

/**
 * The store throttling, failing or unreachable (counted as StoreErrors) — not a transaction conflict,
 * which is contention between the service's own writes, retried as a matter of course.
 */
export function isStoreError(error: unknown): boolean {
  const codes = cancellationCodes(error);
  if (codes) return codes.some((c) => c !== 'TransactionConflict' && RETRY_REASONS.has(c));
  for (const e of chain(error)) if (e.name === 'TransactionConflictException' || e.name === 'TransactionInProgressException') return false;
  return isRetryable(error);
}

/** The call was never sent: the store refused the connection, or its name or route is unknown. */
export function wasNotSent(error: unknown): boolean {
  for (const e of chain(error)) if (NOT_SENT.has(e.code ?? '') || notConnected(e)) return true;
  return false;
}

/** A retryable failure after which the call may nonetheless have been applied. */
export function isAmbiguous(error: unknown): boolean {
  if (cancellationCodes(error) || wasNotSent(error)) return false;
  for (const e of chain(error)) if (THROTTLED.has(e.name ?? '')) return false;
  return isRetryable(error);
}

/** What a store failure was, in a word an operator can look up: a cancelled transaction's reasons, else the first code or name. */
export function failureName(error: unknown): string {
  const codes = cancellationCodes(error);
  if (codes) return `TransactionCanceledException [${codes.join(', ')}]`;
  for (const e of chain(error)) if (e.code || (e.name && e.name !== 'Error')) return e.code ?? (e.name as string);
  return (error as Error | undefined)?.message ?? String(error);
}

/** The store is busy, unreachable or slow (or the request ran out of time waiting for it): 503. */
export function isStoreUnavailable(error: unknown): boolean {
  for (const e of chain(error)) if (e.name === 'AbortError') return true;
  return isRetryable(error);
}

/** DynamoDB's answers that say the request itself is wrong (too large an item, a wrong operand, a malformed expression). */
const INVALID = new Set(['ValidationException', 'SerializationException', 'ItemCollectionSizeLimitExceededException']);
/** A cancelled transaction's reasons that say the same of one of its items. */
const INVALID_REASONS = new Set(['ValidationError', 'ItemCollectionSizeLimitExceeded']);
/**
 * Errors of the program itself on the data it was given (a stored deck code that does not parse, a field of
 * the wrong type): they come back on every try.
 */
const DETERMINISTIC = new Set(['TypeError', 'RangeError', 'SyntaxError', 'DeckCodeError']);

/**
 * A failure that will come back however often the same work is tried: the store refused the request as
 * invalid, or the program failed on the data itself. A worker gives such work up at once (named in its log
 * and the discarded-changes queue) instead of holding its stream's shard on it; anything else — throttling,
 * a conflict, the store unreachable — is retried.
 */
export function isPermanent(error: unknown): boolean {
  const codes = cancellationCodes(error);
  if (codes) return codes.some((c) => INVALID_REASONS.has(c));
  const e = error as SdkError | undefined;
  if (INVALID.has(e?.name ?? '')) return true;
  return e?.$metadata === undefined && DETERMINISTIC.has(e?.name ?? '');
}
