/**
 * An owner's own keys (contract §9.4), pure: the body of a key made by a key, what a key may grant
 * (never a scope it does not hold), when a key expires and what its status reads.
 */
import * as v from 'valibot';
import type { Detail } from './details.ts';
import { coded } from './issues.ts';
import { LIMITS } from './limits.ts';
import { maxChars } from './schemas.ts';
import { isScope, SCOPES, type Scope } from './scopes.ts';
import { parseStrict } from './strict-input.ts';

const DAY_MS = 86_400_000;

/** POST /api/v1/users/:user_id/keys: the scopes (at least one, each known), a label, an expiry in days. */
export const KeyBody = v.strictObject({
  scopes: v.pipe(
    v.array(
      v.pipe(v.string(), v.check(isScope, coded('invalid_value', `not a scope: ${SCOPES.slice(0, -1).join(', ')} or ${SCOPES.at(-1)}`))),
    ),
    v.minLength(1),
    v.transform((scopes) => [...new Set(scopes)] as Scope[]),
  ),
  label: v.optional(v.pipe(v.string(), maxChars(LIMITS.keyLabelChars)), ''),
  expires_in_days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LIMITS.keyExpiryDays))),
});
export type KeyRequest = v.InferOutput<typeof KeyBody>;

export function checkKeyBody(body: unknown): { ok: true; request: KeyRequest } | { ok: false; details: Detail[] } {
  const parsed = parseStrict(KeyBody, body);
  return parsed.ok ? { ok: true, request: parsed.output } : { ok: false, details: parsed.details };
}

/** The requested scopes a key does not hold: a key grants only what it holds. */
export const beyond = (held: readonly Scope[], requested: readonly Scope[]): Scope[] => requested.filter((s) => !held.includes(s));

/** When a key made at `now` for `days` days expires; null for a key without expiry. */
export const expiryOf = (now: Date, days: number | undefined): string | null =>
  days === undefined ? null : new Date(now.getTime() + days * DAY_MS).toISOString();

export const isExpired = (expiresAt: string | null | undefined, now: Date): boolean =>
  expiresAt !== null && expiresAt !== undefined && Date.parse(expiresAt) <= now.getTime();

export type KeyStatus = 'active' | 'revoked' | 'expired';
/** What a key's status reads at `now`: revoked stays revoked; an active key past its expiry is expired. */
export const keyStatus = (key: { status: 'active' | 'revoked'; expires_at?: string | null }, now: Date): KeyStatus =>
  key.status === 'revoked' ? 'revoked' : isExpired(key.expires_at, now) ? 'expired' : 'active';
