/** POST /api/v1/users/:user_id/decks — a new deck from a deck code and its guide. */
import { randomUUID } from 'node:crypto';
import { randomAlphanumeric } from '#auth/random.ts';
import { catalogue } from '#catalogue/load.ts';
import { validationFailed } from '#http/errors.ts';
import { ownerEndpoint } from '#http/types.ts';
import { checkCreate } from '#rules/deck-write.ts';
import { type StoredDeck, createDeck as storeDeck } from '#store/decks.ts';
import { etag } from './params.ts';
import { ownerDeck } from './responses.ts';

export const SHARE_SLUG_LENGTH = 12;

export const createOwnerDeck = ownerEndpoint({}, async (req) => {
  const result = checkCreate(req.body, catalogue());
  if (!result.ok) throw validationFailed(result.details);
  const { cards_snapshot: _derivedOnRead, ...content } = result.content;
  const now = new Date().toISOString();
  const deck: StoredDeck = {
    ...content,
    id: randomUUID(),
    user_id: req.key.user_id,
    // 62^12 ≈ 3·10^21 slugs: a collision is not a practical concern, and the index would show it.
    share_slug: randomAlphanumeric(SHARE_SLUG_LENGTH),
    author_name: req.key.display_name,
    views: 0,
    likes: 0,
    created_at: now,
    updated_at: now,
    version: 1,
  };
  await storeDeck(deck);
  return {
    status: 201,
    data: ownerDeck(deck),
    headers: { location: `/api/v1/users/${deck.user_id}/decks/${deck.id}`, etag: etag(deck.version) },
  };
});
