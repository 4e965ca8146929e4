/**
 * `deckctl cursor-key rotate [--force] [--json] [--aws]`: a new key signs list cursors from now on; the
 * one before it still opens the cursors it signed, and any older key is retired (its cursors answer 400).
 * Functions read the keys again at most KEYS_KEPT_MS (5 minutes) after their last read, at their next
 * cursor request, so a rotation sooner than that after the last one could retire a key that a function
 * still signs with: refused without --force.
 */
import { parseArgs } from 'node:util';
import { KEYS_KEPT_MS } from '#http/cursor.ts';
import { cursorKeys, rotateCursorKeys } from '#store/cursor-keys.ts';
import { useStore } from './accounts.ts';

export async function cursorKeyRotate(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { force: { type: 'boolean' }, json: { type: 'boolean' }, aws: { type: 'boolean' } } });
  useStore(values.aws);
  const [current] = await cursorKeys();
  const age = current ? Date.now() - Date.parse(current.created_at) : Number.POSITIVE_INFINITY;
  if (age < KEYS_KEPT_MS && !values.force) {
    console.error(
      `deckctl: the signing key ${current?.id} is ${Math.round(age / 1000)} s old; functions may still sign with the one before it for up to ${KEYS_KEPT_MS / 60_000} minutes after a rotation, and a second rotation would retire it. Wait, or use --force (cursors signed with the retired key answer 400).`,
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
