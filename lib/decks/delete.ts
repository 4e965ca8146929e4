/** DELETE /api/v1/users/:user_id/decks/:deck_id — with the body `{}` and the decks:delete scope. */
import { deckNotFound, preconditionFailed, unavailable, validationFailed } from '#http/errors.ts';
import type { Endpoint } from '#http/types.ts';
import { checkEmptyObject } from '#rules/empty-body.ts';
import { deleteDeck, getDeck } from '#store/decks.ts';
import { deckPath, ifMatch, retryPause, WRITE_ATTEMPTS } from './params.ts';

export const deleteOwnerDeck: Endpoint = async (req) => {
  const details = checkEmptyObject(req.body);
  if (details.length > 0) throw validationFailed(details);
  const { userId, deckId } = deckPath(req);
  const expected = ifMatch(req);
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    // Read first: the deck's facets name the search entries that go with it.
    const current = await getDeck(userId, deckId);
    if (!current) throw deckNotFound();
    if (expected !== undefined && expected !== current.version) throw preconditionFailed();
    if (await deleteDeck(current)) return { data: { id: deckId, deleted: true } };
    await retryPause(attempt);
  }
  throw unavailable('the deck is being changed by many requests at once; retry');
};
