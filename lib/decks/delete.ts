/** DELETE /api/v1/users/:user_id/decks/:deck_id — with the body `{}` and the decks:delete scope. */
import { deckNotFound, preconditionFailed, validationFailed } from '#http/errors.ts';
import type { Endpoint } from '#http/types.ts';
import { checkEmptyObject } from '#rules/empty-body.ts';
import { deleteDeck } from '#store/decks.ts';
import { deckPath, ifMatch } from './params.ts';

export const deleteOwnerDeck: Endpoint = async (req) => {
  const details = checkEmptyObject(req.body);
  if (details.length > 0) throw validationFailed(details);
  const { userId, deckId } = deckPath(req);
  const outcome = await deleteDeck(userId, deckId, ifMatch(req));
  if (outcome === 'missing') throw deckNotFound();
  if (outcome === 'changed') throw preconditionFailed();
  return { data: { id: deckId, deleted: true } };
};
