/**
 * Keys by their owner (contract §9.4): list, create and revoke with a keys:manage key; what a key may
 * grant (every held set × every requested set as a rule; the sets that decide it at each scope through HTTP); bad bodies; at most 20 active, under
 * concurrent creates too; revocation and expiry effective on the very next request (the expiry moved
 * into the past in the store: time injected, not waited for).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '#auth/keys.ts';
import { beyond } from '#rules/keys.ts';
import { LIMITS } from '#rules/limits.ts';
import { atMost } from '#store/at-most.ts';
import { documentClient } from '#store/client.ts';
import { accountKey } from '#store/items/account.ts';
import { apiKeyKey } from '#store/items/api-key.ts';
import { ACCOUNTS, tableName } from '#store/tables.ts';
import { call, details, newOwner, type Owner } from '../support/api.ts';

const keysOf = (o: Owner) => `/api/v1/users/${o.userId}/keys`;
const create = (o: Owner, body: unknown, key = o.key) => call('POST', keysOf(o), { key, body });
const revoke = (o: Owner, keyId: string, key = o.key) => call('DELETE', `${keysOf(o)}/${keyId}`, { key, body: {} });
const keyIdOf = (apiKey: string) => apiKey.slice(4, 20);

/** Every subset of the scopes. */
const subsets = (all: readonly Scope[]): Scope[][] => {
  const sets: Scope[][] = [[]];
  for (const s of all) for (const set of [...sets]) sets.push([...set, s]);
  return sets;
};

/** Moves a key's expiry to a moment ago, where the service reads it: the key item and its account's record. */
async function expireNow(o: Owner, keyId: string) {
  const past = new Date(Date.now() - 1).toISOString();
  const doc = documentClient();
  await doc.send(
    new UpdateCommand({
      TableName: tableName(ACCOUNTS),
      Key: apiKeyKey(keyId),
      UpdateExpression: 'SET expires_at = :t',
      ExpressionAttributeValues: { ':t': past },
    }),
  );
  await doc.send(
    new UpdateCommand({
      TableName: tableName(ACCOUNTS),
      Key: accountKey(o.userId),
      UpdateExpression: 'SET active_keys.#k = :t',
      ExpressionAttributeNames: { '#k': keyId },
      ExpressionAttributeValues: { ':t': past },
    }),
  );
}

describe('keys by their owner', () => {
  it('list, create (the secret shown once), use within its scopes, revoke', async () => {
    const o = await newOwner();
    const listed = await call('GET', keysOf(o), { key: o.key });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { key_id: o.keyId, label: '', scopes: [...SCOPES], status: 'active', created_at: expect.any(String), expires_at: null },
    ]);
    const before = Date.now();
    const made = await create(o, { scopes: ['decks:read'], label: 'stats script', expires_in_days: 30 });
    expect(made.status).toBe(201);
    const { api_key, key_id, expires_at } = made.body.data;
    expect(made.body.data).toMatchObject({ label: 'stats script', scopes: ['decks:read'], status: 'active' });
    expect(keyIdOf(api_key)).toBe(key_id);
    const days = (Date.parse(expires_at) - before) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(30);
    expect(days).toBeLessThan(30.01);
    // It reads, and only reads.
    expect((await call('GET', o.decks, { key: api_key })).status).toBe(200);
    const write = await call('POST', o.decks, { key: api_key, body: {} });
    expect([write.status, write.body.error.code]).toEqual([403, 'insufficient_scope']);
    // Listed newest first, never with a secret.
    const after = await call('GET', keysOf(o), { key: o.key });
    expect(after.body.data.map((k: { key_id: string }) => k.key_id)).toEqual([key_id, o.keyId]);
    expect(after.text).not.toContain(api_key.slice(21));
    // Revoked: refused on the very next request; listed as revoked; revoking again answers the same.
    expect((await revoke(o, key_id)).body.data).toEqual({ key_id, revoked: true });
    const refused = await call('GET', o.decks, { key: api_key });
    expect([refused.status, refused.body.error.code]).toEqual([401, 'unauthorized']);
    expect((await call('GET', keysOf(o), { key: o.key })).body.data[0]).toMatchObject({ key_id, status: 'revoked' });
    expect((await revoke(o, key_id)).status).toBe(200);
  });

  it('a key may revoke itself: its answer is its last', async () => {
    const o = await newOwner();
    const made = (await create(o, { scopes: ['keys:manage'] })).body.data;
    expect((await revoke(o, made.key_id, made.api_key)).status).toBe(200);
    expect((await call('GET', keysOf(o), { key: made.api_key })).status).toBe(401);
  });

  it('an expired key is refused from its expiry on (and listed as expired); it does not count toward the 20', async () => {
    const o = await newOwner();
    const made = (await create(o, { scopes: ['decks:read'], expires_in_days: 1 })).body.data;
    expect((await call('GET', o.decks, { key: made.api_key })).status).toBe(200);
    await expireNow(o, made.key_id);
    const refused = await call('GET', o.decks, { key: made.api_key });
    expect([refused.status, refused.body.error.code]).toEqual([401, 'unauthorized']);
    expect(refused.body.error.message).toMatch(/expired/);
    expect((await call('GET', keysOf(o), { key: o.key })).body.data[0]).toMatchObject({ key_id: made.key_id, status: 'expired' });
    // 19 more beside the owner's key: 20 live; the expired one is not one of them.
    for (let i = 0; i < LIMITS.activeKeys - 1; i++) expect((await create(o, { scopes: ['decks:read'] })).status).toBe(201);
    expect(details(await create(o, { scopes: ['decks:read'] }))).toEqual([['', 'too_many']]);
  });

  it('at most 20 active keys, held under concurrent creates; a revocation frees a place', async () => {
    const o = await newOwner();
    for (let i = 0; i < 14; i++) expect((await create(o, { scopes: ['decks:read'] })).status).toBe(201);
    // 15 live: ten creates at once, five of them made.
    const racing = await Promise.all(Array.from({ length: 10 }, () => create(o, { scopes: ['decks:read'] })));
    expect(racing.map((r) => r.status).sort()).toEqual([...Array(5).fill(201), ...Array(5).fill(422)]);
    for (const r of racing.filter((x) => x.status === 422)) expect(details(r)).toEqual([['', 'too_many']]);
    const keys = (await call('GET', keysOf(o), { key: o.key })).body.data as { key_id: string; status: string }[];
    expect(keys.filter((k) => k.status === 'active')).toHaveLength(LIMITS.activeKeys);
    await revoke(o, keys[0]?.key_id as string);
    expect((await create(o, { scopes: ['decks:read'] })).status).toBe(201);
    expect(details(await create(o, { scopes: ['decks:read'] }))).toEqual([['', 'too_many']]);
  });

  it("bad bodies are 422 with every failing rule; unknown, malformed and other accounts' key ids are 404", async () => {
    const o = await newOwner();
    expect(details(await create(o, { scopes: ['decks:read', 'decks:admin'] }))).toEqual([['scopes[1]', 'invalid_value']]);
    expect(details(await create(o, { scopes: [] }))).toEqual([['scopes', 'too_few']]);
    expect(details(await create(o, {}))).toEqual([['scopes', 'required']]);
    expect(details(await create(o, { scopes: ['decks:read'], label: 'x'.repeat(61) }))).toEqual([['label', 'too_long']]);
    expect((await create(o, { scopes: ['decks:read'], label: 'x'.repeat(60) })).status).toBe(201);
    for (const days of [0, 366, -1])
      expect(details(await create(o, { scopes: ['decks:read'], expires_in_days: days }))).toEqual([['expires_in_days', 'invalid_value']]);
    expect(details(await create(o, { scopes: ['decks:read'], expires_in_days: 1.5 }))).toEqual([['expires_in_days', 'invalid_type']]);
    expect(details(await create(o, { scopes: ['decks:read'], owner: 'x' }))).toEqual([['owner', 'unknown_field']]);
    const other = await newOwner();
    for (const id of [other.keyId, 'A'.repeat(16), 'not-a-key', 'x'.repeat(300)]) {
      const r = await revoke(o, id);
      expect([r.status, r.body.error.code]).toEqual([404, 'key_not_found']);
    }
    expect((await call('GET', other.decks, { key: other.key })).status).toBe(200);
    const r = await call('GET', keysOf(other), { key: o.key });
    expect([r.status, r.body.error.code]).toEqual([403, 'user_mismatch']);
  });
});

/**
 * The sets held that decide the rule at each scope: each scope alone, all of them, and all but one (each scope held
 * and lacking, with keys:manage and without, where any may be granted).
 */
const deciding = (all: readonly Scope[]): Scope[][] => [...all.map((s) => [s]), [...all], ...all.map((s) => all.filter((t) => t !== s))];

describe('what a key may grant', () => {
  // The rule whole, every held set (1,023 of 10 scopes) × every requested set: a million pairs, without HTTP.
  it('the rule: exactly the subsets of what it holds, for every held set and every requested set', () => {
    const sets = subsets(SCOPES).filter((set) => set.length > 0);
    let pairs = 0;
    for (const held of sets) {
      const mask = new Set(held);
      for (const requested of sets) {
        pairs++;
        const more = beyond(held, requested);
        if ((more.length === 0) !== requested.every((s) => mask.has(s))) throw new Error(`${held} asks ${requested}: ${more}`);
        // It names every scope lacking, and only those (the 403 lists them).
        if (more.length !== requested.filter((s) => !mask.has(s)).length || more.some((s) => mask.has(s) || !requested.includes(s)))
          throw new Error(`${held} asks ${requested}: named ${more}`);
      }
    }
    expect(pairs).toBe(1023 * 1023);
  });

  // Through HTTP, the sets that decide it (above), each asking for itself and for every scope, and each with keys:manage
  // for each scope alone: the route's own scope and the rule, each scope held and lacking. (Every held set × those asks
  // through HTTP was 7,166 creates, 200 s of CI beside the suite: the rule's whole table is the test above.)
  it('with keys:manage, exactly the subsets of what it holds; without it, nothing', async () => {
    const owners = new Map<string, Owner>();
    let asked = 0;
    await atMost(8, deciding(SCOPES), async (held) => {
      const o = await newOwner(held);
      owners.set(held.join(','), o);
      const requests = [held, [...SCOPES], ...(held.includes('keys:manage') ? SCOPES.map((s) => [s]) : [])];
      for (const requested of requests) {
        asked++;
        const r = await create(o, { scopes: requested });
        const allowed = held.includes('keys:manage') && requested.every((s) => held.includes(s));
        const where = `${held.join(',')} asks ${requested.join(',')}`;
        if (allowed) {
          expect([where, r.status, [...r.body.data.scopes].sort()]).toEqual([where, 201, [...new Set(requested)].sort()]);
          expect((await revoke(o, r.body.data.key_id)).status).toBe(200);
        } else expect([where, r.status, r.body.error.code]).toEqual([where, 403, 'insufficient_scope']);
      }
    });
    expect(owners.size).toBe(2 * SCOPES.length + 1);
    expect(asked).toBe(152);
  });
});
