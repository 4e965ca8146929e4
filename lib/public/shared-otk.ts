import { sharedDeck } from '#decks/shared-deck.ts';
import { endpoint } from '#http/types.ts';
import { PUBLIC_ROUTES as R } from '#routes/public.ts';
import { otkChartOf } from '#shapes/deck-bodies.ts';
import { documentClient } from '#store/client.ts';

/** GET /api/v1/decks/:share_slug/otk — the OTK chart of a public or unlisted deck; counts no view (contract §8.6). */
export const readSharedOtk = endpoint(R.readSharedOtk, { init: [documentClient] }, async (req) => ({
  data: otkChartOf(await sharedDeck(req.params.share_slug)),
}));
