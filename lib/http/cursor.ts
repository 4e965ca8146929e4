/**
 * Opaque, tamper-evident cursors: `<key id>.<base64url JSON>.<HMAC-SHA256>`. A cursor is bound to the
 * query it came from (its digest), so it can only continue that query, on that index. It names the key
 * that signed it, so keys can be rotated (deckctl cursor-key rotate) without a deploy: the newest key
 * signs, the one before it still opens, an older one is refused.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { cursorKeys } from '#store/cursor-keys.ts';
import type { CursorKey } from '#store/items/cursor-keys.ts';
import { invalidParameter } from './errors.ts';

/**
 * How long a container keeps the keys it read before it reads them again (at its next cursor request: a
 * frozen function runs no timer). A rotation reaches every container within this and its next cursor
 * request; until then a container signs with the key before, which stays valid. CURSOR_KEY_TTL_MS sets it.
 */
export const KEYS_KEPT_MS = 5 * 60_000;
const keptFor = () => Number(process.env.CURSOR_KEY_TTL_MS ?? KEYS_KEPT_MS);

/**
 * The keys, read from the store (lib/store/cursor-keys.ts) once per container and again when older than
 * keptFor(). The read starts at init (`cursorKeyAtInit`, in a cursor endpoint's `init`) without holding
 * init up: only a request that signs or opens a cursor waits for it. A failed read is not kept: that
 * request answers as the error says (the store busy or unreachable: 503 with Retry-After), and the next
 * reads again.
 */
let held: { keys: CursorKey[]; at: number } | undefined;
let reading: Promise<CursorKey[]> | undefined;
function keys(fresh = false): Promise<CursorKey[]> {
  if (held && !fresh && Date.now() - held.at < keptFor()) return Promise.resolve(held.keys);
  reading ??= cursorKeys()
    .then((read) => {
      held = { keys: read, at: Date.now() };
      return read;
    })
    .finally(() => {
      reading = undefined;
    });
  return reading;
}
/** For an endpoint's `init`: starts reading the keys; a failure waits for a request that needs them. */
export const cursorKeyAtInit = (): void => {
  keys().catch(() => undefined);
};

const mac = (secret: string, signed: string) => createHmac('sha256', secret).update(signed).digest().subarray(0, 18);

export async function signCursor(value: unknown): Promise<string> {
  const [key] = await keys();
  if (!key) throw new Error('no cursor key');
  const signed = `${key.id}.${Buffer.from(JSON.stringify(value)).toString('base64url')}`;
  return `${signed}.${mac(key.secret, signed).toString('base64url')}`;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Only the exact string signCursor made decodes to itself: no padding, appended or altered characters. */
const canonical = (part: string) => BASE64URL.test(part) && Buffer.from(part, 'base64url').toString('base64url') === part;

/** The key of that id: the keys held, or — for an id they do not know (a newer key) — the keys read again. */
async function keyOf(id: string): Promise<CursorKey | undefined> {
  const found = (await keys()).find((k) => k.id === id);
  if (found || (held && Date.now() - held.at < 1_000)) return found;
  return (await keys(true)).find((k) => k.id === id);
}

/** The signed value, or 400 invalid_parameter for anything but the exact string this API issued with a key it keeps (§8.1). */
export async function openCursor(cursor: string): Promise<unknown> {
  const parts = cursor.split('.');
  const [id, payload, tag] = parts;
  if (parts.length === 3 && id && payload && tag && BASE64URL.test(id) && canonical(payload) && canonical(tag)) {
    const key = await keyOf(id);
    const given = Buffer.from(tag, 'base64url');
    const expected = key ? mac(key.secret, `${id}.${payload}`) : undefined;
    if (expected && given.length === expected.length && timingSafeEqual(given, expected)) {
      try {
        return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        // a signed payload always parses; fall through regardless
      }
    }
  }
  throw invalidParameter('cursor is not one this API issued for this query (or its key has been retired)');
}

/**
 * The position a page cursor of this query holds (a list paged by position: the card list's page number, a
 * plays pool's offset), signed with the query's digest; 400 invalid_parameter for a cursor of another query.
 */
export async function cursorPosition(cursor: string, digest: string): Promise<number> {
  const c = (await openCursor(cursor)) as { d?: string; p?: number } | null;
  if (c?.d !== digest || !Number.isInteger(c.p)) throw invalidParameter('cursor belongs to another query');
  return c.p as number;
}
/** A page cursor of this query holding `position`. */
export const positionCursor = (digest: string, position: number): Promise<string> => signCursor({ d: digest, p: position });

/**
 * The sort key of the last item a page showed (a list re-sorted between pages: the archetypes by their decks), bound to
 * the query's digest; 400 invalid_parameter for a cursor of another query.
 */
export async function cursorAfter(cursor: string, digest: string): Promise<[number, string]> {
  const c = (await openCursor(cursor)) as { d?: string; k?: unknown } | null;
  const k = c?.k;
  if (c?.d !== digest || !Array.isArray(k) || k.length !== 2 || !Number.isFinite(k[0]) || typeof k[1] !== 'string')
    throw invalidParameter('cursor belongs to another query');
  return k as [number, string];
}
/** A page cursor of this query after the item of this sort key. */
export const afterCursor = (digest: string, key: [number, string]): Promise<string> => signCursor({ d: digest, k: key });

/** A short digest of a query's parameters, to bind cursors to it. */
export const queryDigest = (parts: readonly (string | undefined)[]): string =>
  createHmac('sha256', 'query').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
