/**
 * API keys (contract §5): `dlk_<key_id>_<secret>`. Only SHA-256 of the secret is stored; a presented
 * secret is compared with it in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { KEY_ID } from '#rules/ids.ts';
import { randomAlphanumeric } from './random.ts';

export { SCOPES, type Scope } from '#rules/scopes.ts';

const KEY = new RegExp(`^dlk_(${KEY_ID})_([A-Za-z0-9]{40})$`);

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function newApiKey(): { keyId: string; apiKey: string; secretHash: string } {
  const keyId = randomAlphanumeric(16);
  const secret = randomAlphanumeric(40);
  return { keyId, apiKey: `dlk_${keyId}_${secret}`, secretHash: hashSecret(secret) };
}

export function parseApiKey(apiKey: string): { keyId: string; secret: string } | undefined {
  const m = KEY.exec(apiKey);
  return m ? { keyId: m[1] as string, secret: m[2] as string } : undefined;
}

/** Constant-time check of a presented secret against a stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

/** A hash no secret matches: compared against when the key id is unknown, so timing says nothing. */
export const NO_KEY_HASH = '0'.repeat(64);
