/**
 * The erasure item (accounts table): an account's erasure under way (contract §9.4), from its first
 * request until nothing of the account is left; each change of it is the next step of the erasure
 * worker (lib/workers/erasure.ts), so it is both the job's state and what drives it.
 *   pk ERASE#<user_id>  sk ERASE  { user_id, started_at, requested_at, decks, round, keys_closed_at? }
 * `decks` is the count the account had when its erasure began (the answer's); `requested_at` the last
 * request's time (the worker leaves the keys to a request for a while after it); `round` counts the
 * steps; `keys_closed_at` is when every key of the account was revoked.
 */
import { itemKind } from './kind.ts';
export interface Erasure {
  user_id: string;
  started_at: string;
  requested_at: string;
  decks: number;
  round: number;
  keys_closed_at?: string;
}

export const ERASURE = itemKind('ERASE#');
export const erasureKey = (userId: string) => ({ pk: ERASURE.pk(userId), sk: 'ERASE' });

export const erasureOf = (item: Record<string, unknown>): Erasure => ({
  user_id: item.user_id as string,
  started_at: item.started_at as string,
  requested_at: item.requested_at as string,
  decks: Number(item.decks ?? 0),
  round: Number(item.round ?? 0),
  ...(typeof item.keys_closed_at === 'string' ? { keys_closed_at: item.keys_closed_at } : {}),
});
