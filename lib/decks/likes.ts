/**
 * PUT / DELETE /api/v1/users/:user_id/likes/:share_slug — one like per account per public or unlisted
 * deck; both idempotent. Answers the deck's exact like count after the change. The count is folded into
 * the deck and its search entries by the store-change worker (lib/workers/likes.ts), not here: a like is
 * one transaction, and a fold that fails is retried until it lands, whatever happens to this request.
 */

import { deckNotFound } from '#http/errors.ts';
import { endpoint, type OwnerRequest } from '#http/types.ts';
import { LIKE_ROUTES as R } from '#routes/likes.ts';
import { getCounts } from '#store/folds.ts';
import { setLike } from '#store/likes.ts';
import { sharedDeck } from './shared-deck.ts';

async function like(req: OwnerRequest<typeof R.likeDeck | typeof R.unlikeDeck>, liked: boolean) {
  const deck = await sharedDeck(req.params.share_slug);
  if ((await setLike(deck, req.key.user_id, liked)) === 'gone') throw deckNotFound();
  const counts = await getCounts(deck.share_slug, true);
  return { data: { share_slug: deck.share_slug, liked, likes: counts.likes } };
}

export const likeDeck = endpoint(R.likeDeck, {}, (req) => like(req, true));
export const unlikeDeck = endpoint(R.unlikeDeck, {}, (req) => like(req, false));
