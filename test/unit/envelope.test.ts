import { describe, expect, it } from 'vitest';
import { jsonMediaTypeProblem } from '#http/body.ts';
import { failure, toApiError } from '#http/envelope.ts';
import { ApiError } from '#http/errors.ts';
import { logger } from '#logger';

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

  it.each([
    ['ThrottlingException', { name: 'ThrottlingException' }],
    ['RequestLimitExceeded', { name: 'RequestLimitExceeded' }],
    ['a 5xx from the store', { name: 'SomethingNew', $fault: 'server', $metadata: { httpStatusCode: 500 } }],
    ['a refused connection', { name: 'Error', code: 'ECONNREFUSED' }],
    ['a reset connection', { name: 'Error', code: 'ECONNRESET' }],
    ['a request timeout', { name: 'TimeoutError' }],
    ['an aborted call (the deadline)', { name: 'AbortError' }],
    ['a network error behind a cause', { name: 'Error', cause: { code: 'ECONNRESET' } }],
  ])('%s is 503', (_name, fields) => {
    expect(toApiError(Object.assign(new Error('x'), fields)).status).toBe(503);
  });

  it('a denied action or a client fault of ours stays a 500', () => {
    expect(toApiError(Object.assign(new Error('x'), { name: 'AccessDeniedException', $fault: 'client' })).status).toBe(500);
    expect(toApiError(Object.assign(new Error('x'), { name: 'ValidationException', $fault: 'client' })).status).toBe(500);
    const own = new ApiError(404, 'deck_not_found', 'no such deck');
    expect(toApiError(own)).toBe(own);
  });

  it('at most 100 details, and details_total when there are more (§8.1)', () => {
    const details = Array.from({ length: 250 }, (_, i) => ({ path: `f${i}`, code: 'unknown_field' as const, message: 'm' }));
    const body = JSON.parse(failure(new ApiError(422, 'validation_failed', 'm', details), 'rid').body as string);
    expect(body.error.details).toHaveLength(100);
    expect(body.error.details_total).toBe(250);
    const few = JSON.parse(failure(new ApiError(422, 'validation_failed', 'm', details.slice(0, 3)), 'rid').body as string);
    expect(few.error).not.toHaveProperty('details_total');
  });
});

describe('JSON media types (RFC 9110)', () => {
  it.each([
    'application/json',
    'Application/JSON',
    'application/json ; charset=utf-8',
    'application/json;charset=UTF-8',
    'application/json; charset="utf-8"',
    'APPLICATION/JSON;  Charset=Utf-8 ; q=1',
    'application/json;',
  ])('%s is JSON', (type) => {
    expect(jsonMediaTypeProblem(type)).toBeUndefined();
  });

  it.each([
    undefined,
    '',
    'text/json',
    'application/jsonx',
    'application/json; charset=latin1',
    'application/json; charset="iso-8859-1"',
    'application/json; charset',
    'application / json',
    'application/x-www-form-urlencoded',
  ])('%s is not', (type) => {
    expect(jsonMediaTypeProblem(type)).toBeDefined();
  });
});
