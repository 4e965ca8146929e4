/** GET /api/v1/users/:user_id/decks/:deck_id — one of the caller's decks, with its version as ETag. */
import { deckNotFound } from '#http/errors.ts';
import type { Endpoint } from '#http/types.ts';
import { getDeck } from '#store/decks.ts';
import { deckPath, etag } from './params.ts';
import { ownerView } from './views.ts';

export const readOwnerDeck: Endpoint = async (req) => {
  const { userId, deckId } = deckPath(req);
  const deck = await getDeck(userId, deckId);
  if (!deck) throw deckNotFound();
  return { data: ownerView(deck), headers: { etag: etag(deck.version) } };
};
