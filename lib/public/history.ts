/**
 * GET /api/v1/decks/:share_slug/versions — a public or unlisted deck's history (contract §9.2): only
 * the versions made while the public could see the deck, in the shape the public may see. Counts no view.
 */
import { historyPage, publicVersionItem } from '#decks/history.ts';
import { cursorKeyAtInit } from '#http/cursor.ts';
import { endpoint } from '#http/types.ts';
import { VersionsQuery } from '#shapes/queries.ts';
import { documentClient } from '#store/client.ts';
import { sharedDeck, shareSlug } from './shared-deck.ts';

export const listSharedVersions = endpoint(
  'listSharedVersions',
  { query: VersionsQuery, init: [cursorKeyAtInit, documentClient] },
  async (req) => {
    const slug = shareSlug(req.params.share_slug);
    const deck = await sharedDeck(slug);
    return historyPage({ kind: 'shared', of: slug }, deck, req.query, publicVersionItem);
  },
);
