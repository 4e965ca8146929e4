/**
 * Opaque, tamper-evident cursors: base64url JSON and an HMAC-SHA256 over it. A cursor is bound to
 * the query it came from (its digest), so it can only continue that query, on that index.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
// Imported, not import()ed: in AWS every cursor function reads the key at init anyway, and a dynamic
// import made esbuild bundle the whole client (all its commands) and wrap half the SDK in lazy
// module initialisers, which cost the import more than the client's own code.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { sdkClientConfig } from '#store/sdk-config.ts';
import { invalidParameter } from './errors.ts';

/**
 * The HMAC key: in AWS from Secrets Manager by the name in CURSOR_SECRET_NAME (the function's
 * configuration holds no secret, and only cursor functions may read that one secret); locally
 * CURSOR_SECRET or a fixed local key, which only keeps local cursors working across restarts.
 */
async function readCursorKey(env = process.env): Promise<string> {
  if (!env.CURSOR_SECRET_NAME) return env.CURSOR_SECRET || 'deck-library-local-cursor-secret';
  // Bounded in time like every store call: a stalled read fails and the next request tries again.
  const client = new SecretsManagerClient(sdkClientConfig(3));
  try {
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: env.CURSOR_SECRET_NAME }));
    if (!SecretString) throw new Error(`the secret ${env.CURSOR_SECRET_NAME} holds no string`);
    return SecretString;
  } finally {
    client.destroy();
  }
}

/**
 * The key, read once per container. The read starts at init (`cursorKeyAtInit`, in a cursor endpoint's
 * `init`) without holding init up: a cold request runs its store calls meanwhile, and only a request
 * that signs or opens a cursor waits for it. A failed read is not kept: that request answers as the
 * error says (Secrets Manager busy or unreachable: 503 with Retry-After), and the next one reads again.
 * Init itself never fails on it, which would leave the client API Gateway's bare 500 instead of an
 * envelope.
 */
let key: Promise<string> | undefined;
function cursorKey(): Promise<string> {
  key ??= readCursorKey().catch((error: unknown) => {
    key = undefined;
    throw error;
  });
  return key;
}
/** For an endpoint's `init`: starts reading the key; its failure waits for a request that needs the key. */
export const cursorKeyAtInit = (): void => {
  cursorKey().catch(() => undefined);
};

const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest().subarray(0, 18);

export async function signCursor(value: unknown): Promise<string> {
  const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${payload}.${mac(await cursorKey(), payload).toString('base64url')}`;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Only the exact string signCursor made decodes to itself: no padding, appended or altered characters. */
const canonical = (part: string) => BASE64URL.test(part) && Buffer.from(part, 'base64url').toString('base64url') === part;

/** The signed value, or 400 invalid_parameter for anything but the exact string this API issued (§8.1). */
export async function openCursor(cursor: string): Promise<unknown> {
  const parts = cursor.split('.');
  const [payload, tag] = parts;
  if (parts.length === 2 && payload && tag && canonical(payload) && canonical(tag)) {
    const given = Buffer.from(tag, 'base64url');
    const expected = mac(await cursorKey(), payload);
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
