import { deckNotFound } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { OWNER_DECK_ROUTES as R } from '#routes/owner-decks.ts';
import { otkChartOf } from '#shapes/deck-bodies.ts';
import { getDeck } from '#store/decks.ts';
import { deckPath } from './params.ts';

/** GET /api/v1/users/:user_id/decks/:deck_id/otk — the OTK chart of one of the caller's decks (contract §8.6). */
export const readOwnerOtk = endpoint(R.readDeckOtk, {}, async (req) => {
  const { userId, deckId } = deckPath(req);
  const deck = await getDeck(userId, deckId);
  if (!deck) throw deckNotFound();
  return { data: otkChartOf(deck) };
});
