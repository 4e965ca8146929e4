/**
 * Opaque, tamper-evident cursors: base64url JSON and an HMAC-SHA256 over it. A cursor is bound to
 * the query it came from (its digest), so it can only continue that query, on that index.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalidParameter } from '#http/errors.ts';

// Deployments set CURSOR_SECRET; the local default only keeps local cursors working across restarts.
const secret = () => process.env.CURSOR_SECRET || 'deck-library-local-cursor-secret';
const mac = (payload: string) => createHmac('sha256', secret()).update(payload).digest().subarray(0, 18);

export function signCursor(value: unknown): string {
  const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${payload}.${mac(payload).toString('base64url')}`;
}

/** The signed value, or 400 invalid_parameter for anything this API did not issue. */
export function openCursor(cursor: string): unknown {
  const [payload, tag, extra] = cursor.split('.');
  if (payload && tag && extra === undefined) {
    const given = Buffer.from(tag, 'base64url');
    const expected = mac(payload);
    if (given.length === expected.length && timingSafeEqual(given, expected)) {
      try {
        return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        // a signed payload always parses; fall through regardless
      }
    }
  }
  throw invalidParameter('cursor is not one this API issued for this query');
}

/** A short digest of a query's parameters, to bind cursors to it. */
export const queryDigest = (parts: readonly (string | undefined)[]): string =>
  createHmac('sha256', 'query').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
