/** GET /api/v1/users/:user_id/decks — the caller's decks, by sort_order then most recently updated. */

import { limitParam } from '#http/query.ts';
import type { Endpoint } from '#http/types.ts';
import { listDecks, ownerOrder } from '#store/decks.ts';
import { decodeOwnerCursor, encodeOwnerCursor, ownerId } from './params.ts';
import { ownerListItem } from './views.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

export const listOwnerDecks: Endpoint = async (req) => {
  const limit = limitParam(req, DEFAULT_LIMIT, MAX_LIMIT);
  const cursor = decodeOwnerCursor(req.query.cursor);
  const page = cursor?.page ?? 1;
  const { items, more } = await listDecks(ownerId(req), limit, cursor);
  const last = items.at(-1);
  return {
    data: items.map(ownerListItem),
    meta: {
      page,
      limit,
      has_more: more,
      next_cursor: more && last ? encodeOwnerCursor({ page: page + 1, owner_order: ownerOrder(last), id: last.id }) : null,
    },
  };
};
