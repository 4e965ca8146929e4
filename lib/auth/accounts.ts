/** Issuing accounts and keys (deckctl and the local runtime's demo account). Secrets leave here once. */
import { randomUUID } from 'node:crypto';
import { holdsInvisible, INVISIBLE } from '#rules/invisible.ts';
import { expiryOf } from '#rules/keys.ts';
import { addKey, putAccount } from '#store/accounts.ts';
import type { Account } from '#store/items/account.ts';
import type { ApiKey } from '#store/items/api-key.ts';
import { newApiKey, type Scope } from './keys.ts';

export const DISPLAY_NAME_MAX = 64;

export async function createAccount(displayName: string): Promise<Account> {
  const name = displayName.trim();
  if (name.length === 0 || [...name].length > DISPLAY_NAME_MAX) {
    throw new RangeError(`a display name is 1-${DISPLAY_NAME_MAX} characters`);
  }
  // Shown on pages and drawn in images: text a reader sees as it is, as tags are (contract §9.1).
  if (INVISIBLE.test(name)) {
    throw new RangeError(holdsInvisible('a display name'));
  }
  const account = { user_id: randomUUID(), display_name: name, created_at: new Date().toISOString() };
  await putAccount(account);
  return account;
}

/** A new key of an account, its secret not yet stored anywhere: what issuing it will write. */
export function newKey(account: Account, scopes: readonly Scope[], options: { label?: string; expiresInDays?: number; now?: Date } = {}) {
  const now = options.now ?? new Date();
  const { keyId, apiKey, secretHash } = newApiKey();
  const key: ApiKey = {
    key_id: keyId,
    user_id: account.user_id,
    display_name: account.display_name,
    secret_hash: secretHash,
    scopes: [...new Set(scopes)],
    status: 'active',
    created_at: now.toISOString(),
    label: options.label ?? '',
    expires_at: expiryOf(now, options.expiresInDays),
  };
  return { key, apiKey };
}

/** An operator's key (deckctl, the local runtime's demo account): any scopes, no limit of live keys. */
export async function issueKey(
  userId: string,
  scopes: Scope[],
  options: { label?: string; expiresInDays?: number } = {},
): Promise<{ key: ApiKey; apiKey: string }> {
  const issued = await addKey(userId, (account) => newKey(account, scopes, options));
  // No limit of live keys: only a missing account refuses it.
  if (typeof issued === 'string') throw new RangeError(`no account ${userId}`);
  return issued;
}
