/**
 * The keys that sign list cursors (lib/http/cursor.ts), kept as one item of the accounts table — read
 * by the functions that sign or open cursors, and only they (their grant), encrypted at rest like every
 * item; never in a function's configuration or the template. Made by the first function that needs
 * them (a conditional put: one wins), rotated by an operator (deckctl cursor-key rotate).
 * The item (items/cursor-keys.ts) holds them newest first, at most KEPT.
 * The newest signs; each kept key still opens the cursors it signed, so a rotation retires nothing a
 * client holds until the rotation after it.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, unlessConditionFailed } from './client.ts';
import { CURSOR_KEYS_KEY, type CursorKey } from './items/cursor-keys.ts';
import { ACCOUNTS, tableName } from './tables.ts';

export type { CursorKey };

/** Keys kept: the one that signs and the one before it. */
export const KEPT = 2;
const table = () => tableName(ACCOUNTS);

export const newCursorKey = (now = new Date()): CursorKey => ({
  id: randomBytes(6).toString('base64url'),
  secret: randomBytes(32).toString('base64url'),
  created_at: now.toISOString(),
});

/** The keys, newest first; made (one put, conditional: a racing maker's are read back) when there are none yet. */
export async function cursorKeys(): Promise<CursorKey[]> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: CURSOR_KEYS_KEY, ConsistentRead: true }));
  if (Item) return Item.keys as CursorKey[];
  const keys = [newCursorKey()];
  const made = await unlessConditionFailed(
    documentClient().send(
      new PutCommand({ TableName: table(), Item: { ...CURSOR_KEYS_KEY, keys }, ConditionExpression: 'attribute_not_exists(pk)' }),
    ),
  );
  return made ? keys : cursorKeys();
}

/**
 * A new signing key; the one that signed until now is kept (its cursors still open), and any older one is
 * retired (its cursors are refused from now on). Conditional on the keys read, so two rotations at once
 * make one change each, in turn. Answers the new key and the retired ones.
 */
export async function rotateCursorKeys(now = new Date()): Promise<{ current: CursorKey; kept: CursorKey[]; retired: CursorKey[] }> {
  const before = await cursorKeys();
  const current = newCursorKey(now);
  const keys = [current, ...before].slice(0, KEPT);
  const written = await unlessConditionFailed(
    documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...CURSOR_KEYS_KEY, keys },
        // "keys" is one of DynamoDB's reserved words.
        ConditionExpression: '#keys[0].id = :was',
        ExpressionAttributeNames: { '#keys': 'keys' },
        ExpressionAttributeValues: { ':was': before[0]?.id },
      }),
    ),
  );
  const done = { current, kept: keys.slice(1), retired: before.slice(KEPT - 1) };
  if (written) return done;
  // The condition failed: another rotation came first — or this one did, its answer lost (then its key signs).
  return (await cursorKeys())[0]?.id === current.id ? done : rotateCursorKeys(now);
}
