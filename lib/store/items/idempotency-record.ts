/**
 * An idempotency record (decks table, contract §8.2): one per account and Idempotency-Key, written in
 * the create's transaction (idempotency.ts). It keeps the first answer (to replay it exactly) and a
 * hash of the body (to tell a repeat from a misuse) for 24 hours (TTL on `expires_at`).
 *   pk IDEMP#<user_id>#<sha256(Idempotency-Key)>  sk IDEMP  { body_hash, answer, expires_at }
 */
export const REMEMBERED_SECONDS = 24 * 60 * 60;

export interface Remembered {
  body_hash: string;
  answer: { status: number; headers: Record<string, string>; data: unknown };
}

/** The record's key, from the account and a hash of its Idempotency-Key (the key itself is never stored). */
export const idempotencyRecordKey = (userId: string, idempotencyKeyHash: string) => ({
  pk: `IDEMP#${userId}#${idempotencyKeyHash}`,
  sk: 'IDEMP',
});
