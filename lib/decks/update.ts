/**
 * PATCH /api/v1/users/:user_id/decks/:deck_id — apply a partial update and re-judge the whole deck.
 * Optimistic concurrency: the write is conditional on the version read. With If-Match a lost race is
 * 412; without it the patch is re-applied to the newer deck, so no update is ever lost.
 */
import { catalogue } from '#catalogue/load.ts';
import { deckNotFound, preconditionFailed, unavailable, validationFailed } from '#http/errors.ts';
import type { Endpoint } from '#http/types.ts';
import { checkPatch } from '#rules/deck-write.ts';
import { getDeck, replaceDeck } from '#store/decks.ts';
import { deckPath, etag, ifMatch, retryPause, WRITE_ATTEMPTS } from './params.ts';
import { ownerView, withSnapshot } from './views.ts';

export const updateOwnerDeck: Endpoint = async (req) => {
  const { userId, deckId } = deckPath(req);
  const expected = ifMatch(req);
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const current = await getDeck(userId, deckId);
    if (!current) throw deckNotFound();
    if (expected !== undefined && expected !== current.version) throw preconditionFailed();
    const result = checkPatch(req.body, withSnapshot(current), catalogue());
    if (!result.ok) throw validationFailed(result.details);
    const { cards_snapshot: _derivedOnRead, ...content } = result.content;
    const next = { ...current, ...content, updated_at: new Date().toISOString(), version: current.version + 1 };
    if (await replaceDeck(next, current)) {
      return { data: ownerView(next), headers: { etag: etag(next.version) } };
    }
    if (expected !== undefined) throw preconditionFailed();
    await retryPause(attempt);
  }
  throw unavailable('the deck is being changed by many requests at once; retry');
};
