/**
 * The cursor keys item (accounts table): the keys that sign list cursors, newest first (cursor-keys.ts
 * in lib/store makes and rotates them).
 *   pk CURSORKEYS  sk CURSORKEYS  { keys: [{ id, secret, created_at }] }
 */
import { itemKind } from './kind.ts';
export interface CursorKey {
  id: string;
  secret: string;
  created_at: string;
}

export const CURSOR_KEYS = itemKind('CURSORKEYS', true);
export const CURSOR_KEYS_KEY = { pk: CURSOR_KEYS.prefix, sk: 'CURSORKEYS' } as const;
