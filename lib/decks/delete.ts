/** DELETE /api/v1/users/:user_id/decks/:deck_id — with the body `{}` and the decks:delete scope. */
import { validationFailed } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { OWNER_DECK_ROUTES as R } from '#routes/owner-decks.ts';
import { checkEmptyObject } from '#rules/empty-body.ts';
import { deleteDeck } from '#store/decks.ts';
import { onLatestDeck } from './optimistic.ts';

export const deleteOwnerDeck = endpoint(R.deleteDeck, {}, async (req) => {
  const details = checkEmptyObject(req.body);
  if (details.length > 0) throw validationFailed(details);
  // Read first: the deck's facets name the search entries that go with it.
  return onLatestDeck(req, async (current) => ((await deleteDeck(current)) ? { data: { id: current.id, deleted: true } } : undefined));
});
