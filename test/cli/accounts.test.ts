/** deckctl users / keys against the run's DynamoDB Local, and the keys it makes used on the API. */
import { describe, expect, inject, it } from 'vitest';
import { call } from '../support/api.ts';
import { deckctl as run } from '../support/deckctl.ts';

const deckctl = (args: string[], env: Record<string, string | undefined> = {}) =>
  run(args, { DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), ...env });

describe('deckctl users and keys', () => {
  it('creates a user and a key that works; lists it without its hash; revokes it at once', async () => {
    const user = await deckctl(['users', 'create', '--display-name', 'Ops Tester', '--json']);
    expect(user.status).toBe(0);
    const account = JSON.parse(user.stdout);
    expect(account).toEqual({ user_id: expect.stringMatching(/^[0-9a-f-]{36}$/), display_name: 'Ops Tester' });

    const created = await deckctl(['keys', 'create', '--user-id', account.user_id, '--scopes', 'decks:read,decks:write', '--json']);
    expect(created.status).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toEqual({
      key_id: expect.any(String),
      api_key: expect.stringMatching(/^dlk_[A-Za-z0-9]{16}_[A-Za-z0-9]{40}$/),
      user_id: account.user_id,
      scopes: ['decks:read', 'decks:write'],
      label: '',
      expires_at: null,
    });
    expect(key.api_key).toContain(key.key_id);

    const decks = `/api/v1/users/${account.user_id}/decks`;
    expect((await call('GET', decks, { key: key.api_key })).status).toBe(200);

    const listed = JSON.parse((await deckctl(['keys', 'list', '--user-id', account.user_id, '--json'])).stdout);
    expect(listed).toEqual([
      {
        key_id: key.key_id,
        user_id: account.user_id,
        display_name: 'Ops Tester',
        scopes: ['decks:read', 'decks:write'],
        status: 'active',
        created_at: expect.any(String),
        label: '',
        expires_at: null,
      },
    ]);
    expect(JSON.stringify(listed)).not.toMatch(/hash|dlk_/);

    expect((await deckctl(['keys', 'revoke', '--key-id', key.key_id])).status).toBe(0);
    expect((await call('GET', decks, { key: key.api_key })).status).toBe(401);
    expect(JSON.parse((await deckctl(['keys', 'list', '--user-id', account.user_id, '--json'])).stdout)[0].status).toBe('revoked');
    expect((await deckctl(['keys', 'revoke', '--key-id', 'nosuchkey'])).status).toBe(1);
  });

  it('issues keys:manage and account:delete, with a label and an expiry in days', async () => {
    const account = JSON.parse((await deckctl(['users', 'create', '--display-name', 'Self Service', '--json'])).stdout);
    const before = Date.now();
    const created = await deckctl([
      'keys',
      'create',
      '--user-id',
      account.user_id,
      '--scopes',
      'keys:manage,account:delete',
      '--label',
      'owner console',
      '--expires-in-days',
      '7',
      '--json',
    ]);
    expect(created.status).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ scopes: ['keys:manage', 'account:delete'], label: 'owner console' });
    expect(Math.round((Date.parse(key.expires_at) - before) / 86_400_000)).toBe(7);
    // keys:manage lists the account's keys; it implies no deck scope.
    expect((await call('GET', `/api/v1/users/${account.user_id}/keys`, { key: key.api_key })).status).toBe(200);
    expect((await call('GET', `/api/v1/users/${account.user_id}/decks`, { key: key.api_key })).status).toBe(403);
    for (const days of ['0', '366', '1.5', 'soon'])
      expect(
        (await deckctl(['keys', 'create', '--user-id', account.user_id, '--scopes', 'decks:read', '--expires-in-days', days])).status,
      ).toBe(2);
  });

  it('usage errors exit 2; a key for no account exits 1', async () => {
    expect((await deckctl(['users', 'create'])).status).toBe(2);
    expect((await deckctl(['users', 'create', '--display-name', '   '])).status).toBe(2);
    expect((await deckctl(['keys', 'create', '--user-id', 'x', '--scopes', 'decks:admin'])).status).toBe(2);
    expect((await deckctl(['keys', 'list', '--user-id', 'x', '--aws'], { ACCOUNTS_TABLE: '' })).status).toBe(2);
    expect((await deckctl(['keys', 'create', '--user-id', '00000000-0000-4000-8000-000000000000', '--scopes', 'decks:read'])).status).toBe(
      1,
    );
  });
});
