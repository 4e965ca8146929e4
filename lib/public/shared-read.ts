/**
 * GET /api/v1/decks/:share_slug — a public or unlisted deck, and one view counted (from the access log). A private or
 * unknown slug gets the same 404, so nothing tells them apart.
 */

import { catalogue } from '#catalogue/load.ts';
import { sharedDeck } from '#decks/shared-deck.ts';
import { endpoint } from '#http/types.ts';
import { PUBLIC_ROUTES as R } from '#routes/public.ts';
import { publicDeck } from '#shapes/deck-bodies.ts';
import { documentClient } from '#store/client.ts';
import { storedCounts } from '#store/view-counts.ts';

export const readSharedDeck = endpoint(R.readSharedDeck, { init: [catalogue, documentClient] }, async (req) => {
  const slug = req.params.share_slug;
  // The deck and its stored views are read side by side: one index item and the deck's own view count.
  const [deck, stored] = await Promise.all([sharedDeck(slug), storedCounts(slug)]);
  // This read is a view: counted from the access log (its line, answered 200: lib/workers/
  // VIEW_SUBSCRIPTION), nothing written here. Shown at once, with the stored totals.
  const shown = { views: stored.views + 1, views_7d: stored.views_7d + 1, likes: deck.likes };
  return { data: publicDeck(deck, shown, catalogue()), headers: { 'cache-control': 'no-store' } };
});
