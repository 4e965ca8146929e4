/**
 * A remembered answer (decks table, contract §8.2): one per account and Idempotency-Key, written in
 * the create's transaction (idempotency.ts). It keeps the first answer (to replay it exactly) and a
 * hash of the body (to tell a repeat from a misuse) for 24 hours (TTL on `expires_at`).
 *   pk IDEMP#<user_id>  sk <sha256(Idempotency-Key)>  { body_hash, answer, expires_at }
 * An account's remembered answers share its partition, so that its erasure finds them with one Query (answers
 * written before this layout, under `IDEMP#<user_id>#<hash>` / `IDEMP`, expired by TTL within 24 hours).
 */
import { itemKind } from './kind.ts';
export const REMEMBERED_SECONDS = 24 * 60 * 60;

export interface Remembered {
  body_hash: string;
  answer: { status: number; headers: Record<string, string>; data: unknown };
}

/** The partition of an account's remembered answers. */
export const REMEMBERED_ANSWER = itemKind('IDEMP#');
export const rememberedAnswersPk = (userId: string) => REMEMBERED_ANSWER.pk(userId);

/** The answer's key, from the account and a hash of its Idempotency-Key (the key itself is never stored). */
export const rememberedAnswerKey = (userId: string, idempotencyKeyHash: string) => ({
  pk: rememberedAnswersPk(userId),
  sk: idempotencyKeyHash,
});
