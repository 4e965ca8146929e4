import { describe, expect, it } from 'vitest';
import { failure, toApiError } from '#http/envelope.ts';
import { ApiError } from '#http/errors.ts';
import { logger } from '#http/logger.ts';

describe('error mapping', () => {
  logger.setLogLevel('SILENT');

  it('an unexpected error is a 500 that says nothing of its insides', () => {
    const e = toApiError(new TypeError('Cannot read properties of undefined (reading "secret_hash")'));
    expect([e.status, e.code]).toEqual([500, 'internal_error']);
    const body = failure(e, 'rid').body as string;
    expect(body).not.toContain('secret_hash');
    expect(JSON.parse(body)).toEqual({
      error: { code: 'internal_error', message: expect.any(String) },
      meta: { api_version: 'v1', request_id: 'rid' },
    });
  });

  it('store throttling is a 503 with Retry-After', () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ProvisionedThroughputExceededException' });
    const e = toApiError(throttled);
    expect([e.status, e.code, e.headers['retry-after']]).toEqual([503, 'service_unavailable', '1']);
    expect(e.message).not.toContain('Rate exceeded');
  });

  it('middy parser errors: malformed is 400 invalid_json, a wrong type is 415', () => {
    const cause = { package: '@middy/http-json-body-parser' };
    expect(toApiError(Object.assign(new Error('Invalid or malformed JSON was provided'), { cause })).code).toBe('invalid_json');
    expect(toApiError(Object.assign(new Error('Unsupported Media Type'), { cause })).code).toBe('unsupported_media_type');
    const own = new ApiError(404, 'deck_not_found', 'no such deck');
    expect(toApiError(own)).toBe(own);
  });
});
