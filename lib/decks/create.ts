/**
 * POST /api/v1/users/:user_id/decks — a new deck from a deck code and its guide. With an
 * Idempotency-Key (contract §8.2), the deck and the key's remembered answer are written in one transaction: a
 * repeat with the same body answers exactly what the first did (Idempotent-Replayed: true) and
 * creates nothing; another body is 409; requests racing with one key make one deck.
 */
import { createHash, randomUUID } from 'node:crypto';
import { randomAlphanumeric } from '#auth/random.ts';
import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { ApiError, invalidParameter, unavailable, validationFailed } from '#http/errors.ts';
import { type ApiResult, type DataOf, endpoint } from '#http/types.ts';
import { count } from '#metrics';
import { OWNER_DECK_ROUTES as R } from '#routes/owner-decks.ts';
import { checkCreate } from '#rules/deck-write.ts';
import { ownerDeck } from '#shapes/deck-bodies.ts';
import { createDeck as storeDeck } from '#store/decks.ts';
import { isStoreUnavailable } from '#store/faults.ts';
import { type Remembered, recall, rememberWrite } from '#store/idempotency.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { etag } from './params.ts';

export const SHARE_SLUG_LENGTH = 12;
/** 1–255 visible ASCII characters (contract §8.2). */
const IDEMPOTENCY_KEY_FORM = /^[\x21-\x7E]{1,255}$/;
const ATTEMPTS = 8;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(200, 10 * 2 ** attempt)));

/** A body's identity: its JSON with members in a fixed order (the order a client wrote them in does not matter). */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
        )
      : value;
const bodyHash = (body: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(canonical(body)))
    .digest('base64url');

/**
 * A create whose transaction got no answer (the store timed out, reset or failed after it was sent) may
 * have been applied: the 503 says so (contract §9.1), and how to find out without making a second deck.
 */
const MAY_HAVE_CREATED =
  'the deck store did not answer in time; the deck may have been created: list your decks before creating it again, or repeat this request with the same Idempotency-Key, which never creates a second deck';
const storing = async <T>(write: Promise<T>): Promise<T> => {
  try {
    return await write;
  } catch (e) {
    if (isStoreUnavailable(e)) throw unavailable(MAY_HAVE_CREATED);
    throw e;
  }
};

/** What a create answers; what a repeat with its Idempotency-Key replays (remembered as it was sent). */
type Answer = { status: 201; data: DataOf<typeof R.createDeck>; headers: Record<string, string> };

function replay(prior: Remembered, hash: string): ApiResult<DataOf<typeof R.createDeck>> {
  if (prior.body_hash !== hash) throw new ApiError(409, 'idempotency_conflict', 'this Idempotency-Key was used with another body');
  const answer = prior.answer as Answer;
  return { ...answer, headers: { ...answer.headers, 'idempotent-replayed': 'true' } };
}

export const createOwnerDeck = endpoint(R.createDeck, { init: [catalogue, archetypeRules] }, async (req) => {
  const idempotencyKey = req.headers['idempotency-key'];
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_FORM.test(idempotencyKey))
    throw invalidParameter('Idempotency-Key is 1-255 visible ASCII characters');
  const hash = idempotencyKey === undefined ? '' : bodyHash(req.body);
  const userId = req.key.user_id;
  if (idempotencyKey !== undefined) {
    const prior = await recall(userId, idempotencyKey);
    if (prior) return replay(prior, hash);
  }
  const result = checkCreate(req.body, catalogue(), archetypeRules());
  if (!result.ok) throw validationFailed(result.details);
  const now = new Date().toISOString();
  const deck: StoredDeck = {
    ...result.content,
    id: randomUUID(),
    user_id: userId,
    // 62^12 ≈ 3·10^21 slugs: a collision is not a practical concern, and the index would show it.
    share_slug: randomAlphanumeric(SHARE_SLUG_LENGTH),
    author_name: req.key.display_name,
    views: 0,
    likes: 0,
    created_at: now,
    updated_at: now,
    version: 1,
  };
  const answer: Answer = {
    status: 201,
    data: ownerDeck(deck, catalogue()),
    headers: { location: `/api/v1/users/${deck.user_id}/decks/${deck.id}`, etag: etag(deck.version) },
  };
  if (idempotencyKey === undefined) {
    if ((await storing(storeDeck(deck))) === 'conflict') throw unavailable('the deck store is busy; nothing was created; retry shortly');
    count('DecksCreated', {});
    return answer;
  }
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if ((await storing(storeDeck(deck, rememberWrite(userId, idempotencyKey, { body_hash: hash, answer })))) === 'ok') {
      count('DecksCreated', {});
      return answer;
    }
    // Another request with this Idempotency-Key got there first (or is committing): answer as it did.
    const prior = await recall(userId, idempotencyKey);
    if (prior) return replay(prior, hash);
    await pause(attempt);
  }
  throw unavailable('requests with this Idempotency-Key are racing; retry');
});
