/**
 * Idempotent create (contract §8.2): a remembered answer per account and Idempotency-Key, written in the same
 * transaction as the deck it made, so the deck and its answer exist together or not at all. It keeps
 * the first answer (to replay it exactly) and a hash of the body (to tell a repeat from a misuse);
 * it is remembered 24 hours (DynamoDB TTL on `expires_at`, and a condition that treats an expired
 * answer as absent until TTL removes it). The item: items/remembered-answer.ts.
 */
import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { deleteItems } from './bulk.ts';
import { documentClient, type TransactItem } from './client.ts';
import { REMEMBERED_SECONDS, type Remembered, rememberedAnswerKey, rememberedAnswersPk } from './items/remembered-answer.ts';
import { DECKS, tableName } from './tables.ts';

export type { Remembered };

const keyOf = (userId: string, idempotencyKey: string) =>
  rememberedAnswerKey(userId, createHash('sha256').update(idempotencyKey).digest('base64url'));

/** The answer's write, to join the create's transaction: it fails (a condition) when a live one exists. */
export function rememberWrite(userId: string, idempotencyKey: string, remembered: Remembered, now = Date.now()): TransactItem {
  return {
    Put: {
      TableName: tableName(DECKS),
      Item: { ...keyOf(userId, idempotencyKey), ...remembered, expires_at: Math.floor(now / 1000) + REMEMBERED_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now',
      ExpressionAttributeValues: { ':now': Math.floor(now / 1000) },
    },
  };
}

/** The live remembered answer of an account's Idempotency-Key, if any (read consistently: it may have just been written). */
export async function recall(userId: string, idempotencyKey: string, now = Date.now()): Promise<Remembered | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(DECKS), Key: keyOf(userId, idempotencyKey), ConsistentRead: true }),
  );
  if (!Item || Number(Item.expires_at) < Math.floor(now / 1000)) return undefined;
  return { body_hash: Item.body_hash as string, answer: Item.answer as Remembered['answer'] };
}

/** Deletes up to `limit` of an account's remembered answers, live or expired (its erasure): how many there were. */
export async function forgetAnswers(userId: string, limit: number): Promise<number> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(DECKS),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': rememberedAnswersPk(userId) },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  await deleteItems(Items.map((i) => ({ pk: i.pk as string, sk: i.sk as string })));
  return Items.length;
}
