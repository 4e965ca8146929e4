/**
 * GET /api/v1/decks/:share_slug — a public or unlisted deck, and one view counted. A private or
 * unknown slug gets the same 404, so nothing tells them apart.
 */

import { catalogue } from '#catalogue/load.ts';
import { publicDeck } from '#decks/responses.ts';
import { publicEndpoint } from '#http/types.ts';
import { documentClient } from '#store/client.ts';
import { storedViews } from '#store/view-buckets.ts';
import { sharedDeck, shareSlug } from './shared-deck.ts';
import { countView } from './view-counter.ts';

export const readSharedDeck = publicEndpoint({ init: [catalogue, documentClient] }, async (req) => {
  const slug = shareSlug(req.params.share_slug);
  // The deck and its stored view count are read side by side: one index item and one bucket attribute.
  const [deck, stored] = await Promise.all([sharedDeck(slug), storedViews(slug)]);
  // The view is counted in this container (nothing awaited): shown with the stored total at once.
  const views = stored + countView(slug);
  return { data: publicDeck(deck, { views, likes: deck.likes }, catalogue()), headers: { 'cache-control': 'no-store' } };
});
