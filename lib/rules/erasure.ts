/**
 * An account's erasure (contract §9.4), pure: its body — exactly `{ "confirm": "<user_id>" }`, the
 * account's own id typed out, so that no erasure happens by a stray request — and the erasure worker's
 * next move once a sweep has found nothing left (lib/workers/erasure.ts runs it).
 */
import * as v from 'valibot';
import { type Detail, detail } from './details.ts';
import { parseStrict } from './strict-input.ts';

/** DELETE /api/v1/users/:user_id: the account's user_id, as its confirmation. */
export const ErasureBody = v.strictObject({ confirm: v.string() });

export function checkErasureBody(body: unknown, userId: string): Detail[] {
  const parsed = parseStrict(ErasureBody, body);
  if (!parsed.ok) return parsed.details;
  return parsed.output.confirm === userId ? [] : [detail('confirm', 'invalid_value', 'confirm must be exactly the user_id in the path')];
}

/** Where an erasure stands, as its worker reads it (store/items/erasure.ts). */
export interface ErasureState {
  requested_at: string;
  keys_closed_at?: string;
}

export type ErasureMove = { move: 'wait'; ms: number } | { move: 'close_keys' } | { move: 'end' };

/**
 * What the worker does when a sweep found nothing of the account left, at `now` (ms), `settleMs` being
 * how long a request a key authenticated may still run: leave the keys to the last request until it is
 * surely over (a repeat of it is still authenticated), then close them; once closed, wait as long again
 * (a request authenticated before the closing ends) — a sweep follows each wait — and only then end.
 */
export function nextErasureMove(state: ErasureState, now: number, settleMs: number): ErasureMove {
  const from = state.keys_closed_at ?? state.requested_at;
  const ms = Date.parse(from) + settleMs - now;
  if (ms > 0) return { move: 'wait', ms: Math.min(ms, settleMs) };
  return state.keys_closed_at === undefined ? { move: 'close_keys' } : { move: 'end' };
}
