/**
 * An account's own keys (contract §9.4): GET, POST /api/v1/users/:user_id/keys and DELETE …/keys/:key_id,
 * with a key of the keys:manage scope. A key grants only scopes it holds; an account has at most 20
 * live keys (store/accounts.ts holds that under concurrent creates); a revocation takes effect with its
 * answer, as an expiry does at its time (lib/http/auth.ts reads the key on every request).
 */
import { newKey } from '#auth/accounts.ts';
import { forbidden, keyNotFound, validationFailed } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { ACCOUNT_ROUTES as R } from '#routes/account.ts';
import { detail } from '#rules/details.ts';
import { checkEmptyObject } from '#rules/empty-body.ts';
import { beyond, checkKeyBody, keyStatus } from '#rules/keys.ts';
import { LIMITS } from '#rules/limits.ts';
import { addKey, listKeys, revokeKey } from '#store/accounts.ts';
import type { KeySummary } from '#store/items/api-key.ts';

/** A key as its owner sees it: its status at `now` (an active key past its expiry reads expired). */
const shown = (key: KeySummary, now: Date) => ({
  key_id: key.key_id,
  label: key.label,
  scopes: key.scopes,
  status: keyStatus(key, now),
  created_at: key.created_at,
  expires_at: key.expires_at,
});

export const listOwnKeys = endpoint(R.listKeys, {}, async (req) => {
  const now = new Date();
  return { data: (await listKeys(req.key.user_id)).map((k) => shown(k, now)) };
});

export const createOwnKey = endpoint(R.createKey, {}, async (req) => {
  const checked = checkKeyBody(req.body);
  if (!checked.ok) throw validationFailed(checked.details);
  const { scopes, label, expires_in_days } = checked.request;
  const more = beyond(req.key.scopes, scopes);
  if (more.length > 0)
    throw forbidden('insufficient_scope', `a key grants only scopes it holds: this one does not hold ${more.join(', ')}`);
  const now = new Date();
  const added = await addKey(
    req.key.user_id,
    (account) => newKey(account, scopes, { label, expiresInDays: expires_in_days, now }),
    LIMITS.activeKeys,
  );
  if (added === 'too_many')
    throw validationFailed([detail('', 'too_many', `an account has at most ${LIMITS.activeKeys} active keys: revoke one first`)]);
  // The key authenticated a moment ago; its account gone since is an account being erased.
  if (added === 'no_account') throw keyNotFound();
  return { status: 201, data: { ...shown(added.key, now), api_key: added.apiKey } };
});

export const revokeOwnKey = endpoint(R.revokeKey, {}, async (req) => {
  const details = checkEmptyObject(req.body, 'a revocation');
  if (details.length > 0) throw validationFailed(details);
  // Anything but a key id names no key, and is not looked up.
  if (!(await revokeKey(req.params.key_id, req.key.user_id))) throw keyNotFound();
  return { data: { key_id: req.params.key_id, revoked: true as const } };
});
