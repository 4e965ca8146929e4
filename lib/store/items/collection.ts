/**
 * A player's collection (accounts table, contract §12.3): one item an account, beside its account item (so under
 * the account's leading key: a grant on ACCOUNT reaches it, and erasure's removal of the account takes it).
 *   pk USER#<user_id>  sk COLLECTION  { cards: { <card_id>: copies }, version, updated_at, change }
 * `version` counts its writes (the ETag, and the condition each write is made under); `change` is the id of the
 * request that wrote it last (a write retried after an answer lost finds itself applied rather than applying twice).
 */
import { ACCOUNT } from './account.ts';

export const collectionKey = (userId: string) => ({ pk: ACCOUNT.pk(userId), sk: 'COLLECTION' });

export interface StoredCollection {
  cards: Record<string, number>;
  version: number;
  updated_at: string;
  change: string;
}
