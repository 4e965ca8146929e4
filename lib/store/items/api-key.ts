/**
 * The API key item (accounts table): an account's key, by the id a bearer token names; only a hash of
 * its secret is kept (lib/auth/keys.ts).
 *   pk KEY#<key_id>  sk KEY  { key_id, key_user_id, display_name, secret_hash, scopes, status, created_at,
 *                              label, expires_at }
 * The account's live keys are also named in its account item (items/account.ts: active_keys), which
 * holds the limit of 20 exactly under concurrent creates.
 */
import type { Scope } from '#rules/scopes.ts';
import { itemKind } from './kind.ts';

export interface ApiKey {
  key_id: string;
  user_id: string;
  display_name: string;
  secret_hash: string;
  scopes: Scope[];
  status: 'active' | 'revoked';
  created_at: string;
  /** The owner's name for it ('' when none). */
  label: string;
  /** When it stops working (ISO 8601); null: never. */
  expires_at: string | null;
}
/** What an operator's listing shows of a key: never its secret's hash. */
export type KeySummary = Omit<ApiKey, 'secret_hash'>;

export const API_KEY = itemKind('KEY#');
export const apiKeyKey = (keyId: string) => ({ pk: API_KEY.pk(keyId), sk: 'KEY' });

export const apiKeyOf = (item: Record<string, unknown>): ApiKey => ({
  key_id: item.key_id as string,
  user_id: item.key_user_id as string,
  display_name: item.display_name as string,
  secret_hash: item.secret_hash as string,
  scopes: item.scopes as Scope[],
  status: item.status as ApiKey['status'],
  created_at: item.created_at as string,
  // Keys made before labels and expiry have neither.
  label: (item.label as string | undefined) ?? '',
  expires_at: (item.expires_at as string | null | undefined) ?? null,
});
