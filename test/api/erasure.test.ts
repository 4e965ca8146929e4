/**
 * The erasure's answers (contract §9.4): a body that is not exactly `{ "confirm": "<user_id>" }` is 422
 * and erases nothing; another user's path is 403; a key without account:delete is 403 — whatever its
 * other scopes; and an erasure answered 200 leaves every key 401 and every share slug 404 at once, and
 * no key can be made for the account after it. (Everything of it gone from the store, interrupted and
 * repeated: test/runtime/erasure.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { issueKey } from '#auth/accounts.ts';
import { SCOPES } from '#auth/keys.ts';
import { call, createDeck, details, newOwner, type Owner } from '../support/api.ts';

const erase = (o: Owner, body: unknown, key = o.key, userId = o.userId) => call('DELETE', `/api/v1/users/${userId}`, { key, body });

describe('DELETE /api/v1/users/:user_id', () => {
  it('422 for any body but { confirm: <user_id> }, with its details; nothing is erased', async () => {
    const o = await newOwner();
    const deck = (await createDeck(o, { visibility: 'public' })).body.data;
    const cases: [unknown, [string, string][]][] = [
      [{}, [['confirm', 'required']]],
      [{ confirm: 42 }, [['confirm', 'invalid_type']]],
      [{ confirm: o.userId.toUpperCase() }, [['confirm', 'invalid_value']]],
      [{ confirm: ` ${o.userId}` }, [['confirm', 'invalid_value']]],
      [{ confirm: o.userId, also: true }, [['also', 'unknown_field']]],
    ];
    for (const [body, expected] of cases) {
      const r = await erase(o, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      expect(details(r)).toEqual(expected);
    }
    expect(
      (await call('DELETE', `/api/v1/users/${o.userId}`, { key: o.key, raw: '[]', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(400);
    // Still there: the key works, the deck answers.
    expect((await call('GET', o.decks, { key: o.key })).status).toBe(200);
    expect((await call('GET', `/api/v1/decks/${deck.share_slug}`)).status).toBe(200);
  });

  it("403 for another user's path (user_mismatch) and for a key without account:delete (insufficient_scope); 401 without a key", async () => {
    const [o, other] = await Promise.all([newOwner(), newOwner()]);
    const mismatch = await erase(o, { confirm: other.userId }, o.key, other.userId);
    expect([mismatch.status, mismatch.body.error.code]).toEqual([403, 'user_mismatch']);
    const everythingBut = await issueKey(
      o.userId,
      SCOPES.filter((s) => s !== 'account:delete'),
    );
    const scoped = await erase(o, { confirm: o.userId }, everythingBut.apiKey);
    expect([scoped.status, scoped.body.error.code]).toEqual([403, 'insufficient_scope']);
    expect((await call('DELETE', `/api/v1/users/${o.userId}`, { body: { confirm: o.userId } })).status).toBe(401);
    expect((await call('GET', other.decks, { key: other.key })).status).toBe(200);
  });

  it('200 with the decks it had; from the answer on, every key of it is 401 and every share slug 404', async () => {
    const o = await newOwner(['account:delete']);
    const full = await issueKey(o.userId, [...SCOPES]);
    const writer: Owner = { ...o, key: full.apiKey };
    const decks = [
      (await createDeck(writer, { visibility: 'public' })).body.data,
      (await createDeck(writer, { visibility: 'unlisted' })).body.data,
      (await createDeck(writer, { visibility: 'private' })).body.data,
    ];
    const r = await erase(o, { confirm: o.userId });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ user_id: o.userId, deleted: true, decks: 3 });
    for (const key of [o.key, full.apiKey]) {
      const refused = await call('GET', `/api/v1/users/${o.userId}/export`, { key });
      expect([refused.status, refused.body.error.code]).toEqual([401, 'unauthorized']);
    }
    for (const d of decks) expect((await call('GET', `/api/v1/decks/${d.share_slug}`)).status).toBe(404);
    // No key can be made for it any more, not even by an operator's deckctl.
    await expect(issueKey(o.userId, ['decks:read'])).rejects.toThrow();
  });
});
