/**
 * The account item (accounts table): who owns decks and keys.
 *   pk USER#<user_id>  sk ACCOUNT  { user_id, display_name, created_at }
 */
export interface Account {
  user_id: string;
  display_name: string;
  created_at: string;
}

export const accountKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'ACCOUNT' });
