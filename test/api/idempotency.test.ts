/**
 * Idempotent create (contract §8.2): the same Idempotency-Key and body twice make one deck and the same
 * answer (Idempotent-Replayed: true); the same key with another body is 409 idempotency_conflict; ten
 * requests with one key at once make one deck; keys are per account; a malformed key is refused.
 */
import { describe, expect, it } from 'vitest';
import { call, code, newOwner } from '../support/api.ts';

const body = (system = 'Idempotent') => ({ deck_code: code(), guide: { system }, tags: ['once'] });

describe('Idempotency-Key on create', () => {
  it('same key and body twice: one deck, the same answer, Idempotent-Replayed: true', async () => {
    const owner = await newOwner();
    const headers = { 'idempotency-key': 'order-2026-11-21#1' };
    const first = await call('POST', owner.decks, { key: owner.key, body: body(), headers });
    const again = await call('POST', owner.decks, { key: owner.key, body: body(), headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    // Members in another order are the same body.
    const reordered = await call('POST', owner.decks, {
      key: owner.key,
      raw: JSON.stringify({ tags: ['once'], guide: { system: 'Idempotent' }, deck_code: code() }),
      headers: { ...headers, 'content-type': 'application/json' },
    });
    expect([reordered.status, reordered.body.data.id]).toEqual([201, first.body.data.id]);
    const list = await call('GET', owner.decks, { key: owner.key });
    expect(list.body.data).toHaveLength(1);
  });

  it('same key, another body: 409 idempotency_conflict, nothing created', async () => {
    const owner = await newOwner();
    const headers = { 'idempotency-key': 'k1' };
    expect((await call('POST', owner.decks, { key: owner.key, body: body('A'), headers })).status).toBe(201);
    const other = await call('POST', owner.decks, { key: owner.key, body: body('B'), headers });
    expect([other.status, other.body.error.code]).toEqual([409, 'idempotency_conflict']);
    expect((await call('GET', owner.decks, { key: owner.key })).body.data).toHaveLength(1);
  });

  it('ten requests with one key at once: one deck, ten answers naming it', async () => {
    const owner = await newOwner();
    const headers = { 'idempotency-key': 'burst' };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', owner.decks, { key: owner.key, body: body(), headers })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect((await call('GET', owner.decks, { key: owner.key })).body.data).toHaveLength(1);
  });

  it('keys are per account; a malformed key (empty, over 255, not visible ASCII) is 400', async () => {
    const [a, b] = [await newOwner(), await newOwner()];
    const headers = { 'idempotency-key': 'shared-name' };
    const ofA = await call('POST', a.decks, { key: a.key, body: body(), headers });
    const ofB = await call('POST', b.decks, { key: b.key, body: body(), headers });
    expect(ofB.headers.get('idempotent-replayed')).toBeNull();
    expect(ofB.body.data.id).not.toBe(ofA.body.data.id);
    for (const bad of ['', 'x'.repeat(256), 'with space', 'é']) {
      const r = await call('POST', a.decks, { key: a.key, body: body(), headers: { 'idempotency-key': bad } });
      expect([JSON.stringify(bad).slice(0, 12), r.status, r.body.error.code]).toEqual([
        JSON.stringify(bad).slice(0, 12),
        400,
        'invalid_parameter',
      ]);
    }
  });
});
