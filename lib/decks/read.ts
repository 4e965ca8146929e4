/** GET /api/v1/users/:user_id/decks/:deck_id — one of the caller's decks, with its version as ETag. */
import { catalogue } from '#catalogue/load.ts';
import { deckNotFound } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { OWNER_DECK_ROUTES as R } from '#routes/owner-decks.ts';
import { ownerDeck } from '#shapes/deck-bodies.ts';
import { getDeck } from '#store/decks.ts';
import { deckPath, etag } from './params.ts';

export const readOwnerDeck = endpoint(R.readDeck, { init: [catalogue] }, async (req) => {
  const { userId, deckId } = deckPath(req);
  const deck = await getDeck(userId, deckId);
  if (!deck) throw deckNotFound();
  return { data: ownerDeck(deck, catalogue()), headers: { etag: etag(deck.version) } };
});
