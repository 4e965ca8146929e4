/**
 * The error envelope (contract §2) and which codes each status carries, once: the HTTP layer answers
 * with these codes, and the OpenAPI document lists, per operation and status, the codes it can carry.
 */
import * as v from 'valibot';
import { API_VERSION, MAX_DETAILS } from './envelope-constants.ts';
import { Detail } from './responses.ts';

export { Detail };

/** Every error code, by the status that carries it. */
export const ERROR_CODES = {
  400: ['invalid_json', 'invalid_parameter'],
  401: ['unauthorized'],
  403: ['insufficient_scope', 'user_mismatch', 'not_organizer', 'lists_not_public'],
  404: ['deck_not_found', 'version_not_found', 'card_not_found', 'key_not_found', 'not_found'],
  409: ['idempotency_conflict', 'deadline_passed', 'webhook_disabled'],
  412: ['precondition_failed'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  422: ['validation_failed'],
  500: ['internal_error'],
  503: ['service_unavailable'],
} as const;
export type ErrorStatus = keyof typeof ERROR_CODES;
export type ErrorCode = (typeof ERROR_CODES)[ErrorStatus][number];

/**
 * What the gateway answers for a request it cannot parse (locally Node's HTTP parser refuses it; on AWS,
 * API Gateway answers such a request itself): not an answer of the API's, so not in its document.
 */
export const GATEWAY_CODES = { 400: ['bad_request'], 431: ['headers_too_large'] } as const;
type Codes = {
  [S in ErrorStatus | keyof typeof GATEWAY_CODES]:
    | (S extends ErrorStatus ? (typeof ERROR_CODES)[S][number] : never)
    | (S extends keyof typeof GATEWAY_CODES ? (typeof GATEWAY_CODES)[S][number] : never);
};
/** A status an error may answer, and the codes that status carries. */
export type AnyErrorStatus = keyof Codes;
export type CodeOf<S extends AnyErrorStatus> = Codes[S];

export { MAX_DETAILS };

export const ErrorMeta = v.strictObject({ api_version: v.literal(API_VERSION), request_id: v.string() });
export const Details = v.pipe(v.array(Detail), v.maxLength(MAX_DETAILS));

/** The error envelope for the codes given. */
export const ErrorEnvelope = (codes: readonly [string, ...string[]]) =>
  v.strictObject({
    error: v.strictObject({
      code: v.picklist(codes),
      message: v.string(),
      details: v.optional(Details),
      details_total: v.optional(v.pipe(v.number(), v.integer(), v.minValue(MAX_DETAILS + 1))),
    }),
    meta: ErrorMeta,
  });

/** What API Gateway itself answers a throttled client (HTTP APIs have no gateway responses): not our envelope. */
export const ThrottledByGateway = v.strictObject({ message: v.literal('Too Many Requests') });
