/** Errors that become the contract's error envelope (contract §2). */
import type { Detail } from '#rules/details.ts';
import type { AnyErrorStatus, CodeOf } from '#shapes/errors.ts';

export { MAX_DETAILS } from '#shapes/envelope-constants.ts';

/** An error answer: its code one of those its status carries (the published codes, lib/shapes/errors.ts). */
export class ApiError<S extends AnyErrorStatus = AnyErrorStatus> extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: S,
    readonly code: CodeOf<S>,
    message: string,
    readonly details?: Detail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const validationFailed = (details: Detail[]) =>
  new ApiError(
    422,
    'validation_failed',
    `the request breaks ${details.length} rule${details.length === 1 ? '' : 's'}; see details`,
    details,
  );
export const invalidJson = (message = 'the body must be a JSON object') => new ApiError(400, 'invalid_json', message);
export const invalidParameter = (message: string) => new ApiError(400, 'invalid_parameter', message);
export const deckNotFound = () => new ApiError(404, 'deck_not_found', 'no such deck');
export const versionNotFound = () => new ApiError(404, 'version_not_found', 'no such version of this deck is kept');
export const keyNotFound = () => new ApiError(404, 'key_not_found', 'this account has no key of that id');
export const unauthorized = (message: string) => new ApiError(401, 'unauthorized', message, undefined, { 'www-authenticate': 'Bearer' });
export const forbidden = (code: 'insufficient_scope' | 'user_mismatch' | 'not_organizer' | 'lists_not_public', message: string) =>
  new ApiError(403, code, message);
export const preconditionFailed = (what = 'the deck') =>
  new ApiError(412, 'precondition_failed', `${what} has changed since that version (If-Match)`);
/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 1;
export const unavailable = (message: string) =>
  new ApiError(503, 'service_unavailable', message, undefined, { 'retry-after': String(RETRY_AFTER_SECONDS) });
