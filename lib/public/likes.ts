/**
 * PUT / DELETE /api/v1/users/:user_id/likes/:share_slug — one like per account per public or unlisted
 * deck; both idempotent. Answers the deck's like count after the change.
 */

import { type OwnerRequest, ownerEndpoint } from '#http/types.ts';
import { foldLikes, getCounts, setLike } from '#store/counters.ts';
import { sharedDeck, shareSlug } from './shared-deck.ts';

async function like(req: OwnerRequest, liked: boolean) {
  const deck = await sharedDeck(shareSlug(req.params.share_slug));
  await setLike(deck.share_slug, req.key.user_id, liked);
  const counts = await getCounts(deck.share_slug, true);
  await foldLikes(deck, counts);
  return { data: { share_slug: deck.share_slug, liked, likes: counts.likes } };
}

export const likeDeck = ownerEndpoint({}, (req) => like(req, true));
export const unlikeDeck = ownerEndpoint({}, (req) => like(req, false));
