/**
 * `deckctl cursor-key rotate [--force] [--json] [--aws]`: a new key signs list cursors from now on; the
 * one before it still opens the cursors it signed, and any older key is retired (its cursors answer 400).
 * Functions read the keys again at most KEYS_KEPT_MS (5 minutes) after their last read, at their next
 * cursor request, so a rotation sooner than that after the last rotation could retire a key that a
 * function still signs with: refused without --force. The first rotation of a store (one key, made by
 * the first cursor signed) retires nothing: never refused.
 */
import { parseArgs } from 'node:util';
import { KEYS_KEPT_MS } from '#http/cursor.ts';
import { cursorKeys, rotateCursorKeys } from '#store/cursor-keys.ts';
import { useStore } from './accounts.ts';

/**
 * How long ago the store's keys were last rotated: the newest key's age when a key before it exists (the
 * newest was made by a rotation); never (infinity) while the store has its first key only.
 */
export const sinceLastRotation = (keys: readonly { created_at: string }[], now = Date.now()): number =>
  keys.length >= 2 ? now - Date.parse((keys[0] as { created_at: string }).created_at) : Number.POSITIVE_INFINITY;

export async function cursorKeyRotate(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { force: { type: 'boolean' }, json: { type: 'boolean' }, aws: { type: 'boolean' } } });
  useStore(values.aws);
  const since = sinceLastRotation(await cursorKeys());
  if (since < KEYS_KEPT_MS && !values.force) {
    console.error(
      `deckctl: the last rotation was ${Math.round(since / 1000)} s ago; functions may still sign with the key before it for up to ${KEYS_KEPT_MS / 60_000} minutes after a rotation, and another rotation would retire it. Wait, or use --force (cursors signed with the retired key answer 400).`,
    );
    return 1;
  }
  const { current: made, kept, retired } = await rotateCursorKeys();
  const answer = { current: made.id, kept: kept.map((k) => k.id), retired: retired.map((k) => k.id) };
  console.log(
    values.json
      ? JSON.stringify(answer)
      : `cursor key ${made.id} signs from now on (functions take it within ${KEYS_KEPT_MS / 60_000} minutes); ${
          kept.length ? `${kept.map((k) => k.id).join(', ')} still opens its cursors` : 'no key before it'
        }; ${retired.length ? `retired: ${retired.map((k) => k.id).join(', ')}` : 'none retired'}`,
  );
  return 0;
}
