/**
 * GET /api/v1/decks/:share_slug/versions — a public or unlisted deck's history (contract §9.2): only
 * the versions made while the public could see the deck, in the shape the public may see. Counts no view.
 */
import { historyPage, publicVersionItem } from '#decks/history.ts';
import { sharedDeck } from '#decks/shared-deck.ts';
import { cursorKeyAtInit } from '#http/cursor.ts';
import { endpoint } from '#http/types.ts';
import { HISTORY_ROUTES as R } from '#routes/history.ts';
import { documentClient } from '#store/client.ts';

export const listSharedVersions = endpoint(R.listSharedVersions, { init: [cursorKeyAtInit, documentClient] }, async (req) => {
  const slug = req.params.share_slug;
  const deck = await sharedDeck(slug);
  return historyPage({ kind: 'shared', of: slug }, deck, req.query, publicVersionItem);
});
