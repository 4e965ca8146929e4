/**
 * The account item (accounts table): who owns decks and keys.
 *   pk USER#<user_id>  sk ACCOUNT  { user_id, display_name, created_at, active_keys?, keys_version? }
 * active_keys maps the id of each key not revoked to its expiry ('never' for none); keys_version counts
 * its changes, the condition every change of it is written under (store/accounts.ts).
 */
import { itemKind } from './kind.ts';
export interface Account {
  user_id: string;
  display_name: string;
  created_at: string;
}

/** The accounts table's account items (the decks table's deck items share the prefix: another table). */
export const ACCOUNT = itemKind('USER#');
export const accountKey = (userId: string) => ({ pk: ACCOUNT.pk(userId), sk: 'ACCOUNT' });

/** The expiry active_keys records for a key that never expires. */
export const NEVER = 'never';
