/**
 * Which store errors mean "the store is busy, unreachable or slow" (contract §8.1: 503 with
 * Retry-After, never a 500): DynamoDB's throttling and server errors, the SDK's timeouts and
 * aborts, and network failures. Anything else (a bug, a denied action) stays a fault.
 */
const THROTTLED = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionInProgressException',
  // The SDK's own: a request or connection timeout, or the request's deadline (client.ts).
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'AbortError',
]);
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

interface SdkError {
  name?: string;
  code?: string;
  $fault?: string;
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
}

export function isStoreUnavailable(error: unknown): boolean {
  for (let e = error as SdkError | undefined, depth = 0; e && depth < 4; e = e.cause as SdkError | undefined, depth++) {
    if (typeof e !== 'object') return false;
    if (THROTTLED.has(e.name ?? '') || NETWORK.has(e.code ?? '')) return true;
    if (e.$fault === 'server' || (e.$metadata?.httpStatusCode ?? 0) >= 500) return true;
  }
  return false;
}
