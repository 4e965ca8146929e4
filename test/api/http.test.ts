/** The HTTP surface: bodies, media types, sizes, unknown routes, request ids — all in the contract's envelope. */
import { describe, expect, it } from 'vitest';
import { baseUrl, call, code, newOwner } from '../support/api.ts';

const envelope = (r: { body: { error: unknown; meta: unknown }; headers: Headers }) => {
  expect(r.body.meta).toEqual({ api_version: 'v1', request_id: r.headers.get('x-request-id') });
  expect(JSON.stringify(r.body)).not.toMatch(/at .*\.ts|Error:|stack/);
};

describe('bodies', async () => {
  const owner = await newOwner();

  it.each([
    ['malformed JSON', '{"deck_code": '],
    ['an array', '[]'],
    ['a string', '"deck"'],
    ['null', 'null'],
    ['empty', ''],
  ])('%s is 400 invalid_json', async (_name, raw) => {
    const r = await call('POST', owner.decks, { key: owner.key, raw, headers: { 'content-type': 'application/json' } });
    expect([r.status, r.body.error.code]).toEqual([400, 'invalid_json']);
    envelope(r);
  });

  it('a non-JSON content type is 415 unsupported_media_type', async () => {
    const r = await call('POST', owner.decks, {
      key: owner.key,
      raw: 'deck_code=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([r.status, r.body.error.code]).toEqual([415, 'unsupported_media_type']);
    envelope(r);
  });

  it('application/json with a charset is JSON', async () => {
    const r = await call('POST', `${owner.decks}/validate`, {
      key: owner.key,
      body: { deck_code: code(), guide: { system: 'x' } },
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(r.status).toBe(200);
  });

  it('a body over 128 KiB is 413 payload_too_large, before anything else', async () => {
    const r = await call('POST', owner.decks, {
      key: owner.key,
      body: { deck_code: code(), guide: { system: 'x', description: 'd'.repeat(130 * 1024) } },
    });
    expect([r.status, r.body.error.code]).toEqual([413, 'payload_too_large']);
    envelope(r);
  });
});

describe('routes and ids', () => {
  it('an unknown route or method is 404 not_found', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/api/v1/nothing'],
      ['PUT', '/api/v1/users/x/decks'],
      ['POST', '/api/v1/users/x/decks/y'],
    ]) {
      const r = await call(method as string, path as string);
      expect([method, path, r.status, r.body.error.code]).toEqual([method, path, 404, 'not_found']);
      envelope(r);
    }
    // HEAD of a GET route is that route's answer without its body (contract §10.4: test/api/head.test.ts
    // has every route); of a path no route has, the 404's headers without its body.
    for (const [path, status] of [
      ['/api/v1/decks', 200],
      ['/api/v1/cards/2B', 200],
      ['/api/v1/nothing', 404],
    ] as const) {
      const head = await fetch(`${baseUrl()}${path}`, { method: 'HEAD' });
      expect([path, head.status, head.headers.get('content-type'), await head.text()]).toEqual([
        path,
        status,
        'application/json; charset=utf-8',
        '',
      ]);
      expect(head.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('every response carries a distinct X-Request-Id', async () => {
    const owner = await newOwner();
    const ids = new Set<string>();
    for (const r of [await call('GET', owner.decks, { key: owner.key }), await call('GET', owner.decks), await call('GET', '/x')]) {
      const id = r.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(id as string);
    }
    expect(ids.size).toBe(3);
  });
});

describe('order of checks', () => {
  it('a caller without a key gets 401 whatever the body; the size limit comes first', async () => {
    const owner = await newOwner();
    const bad = await call('POST', owner.decks, { raw: '{', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(401);
    const huge = await call('POST', owner.decks, { raw: 'x'.repeat(129 * 1024), headers: { 'content-type': 'application/json' } });
    expect(huge.status).toBe(413);
  });
});
