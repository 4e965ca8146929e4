/** GET /api/v1/users/:user_id/decks — the caller's decks, by sort_order then most recently updated. */
import { cursorKeyAtInit } from '#http/cursor.ts';
import { endpoint } from '#http/types.ts';
import { OWNER_DECK_ROUTES as R } from '#routes/owner-decks.ts';
import { ownerListItem } from '#shapes/deck-bodies.ts';
import { listDecks } from '#store/decks.ts';
import { ownerOrder } from '#store/items/deck.ts';
import { decodeOwnerCursor, encodeOwnerCursor } from './owner-cursor.ts';

export const listOwnerDecks = endpoint(R.listDecks, { init: [cursorKeyAtInit] }, async (req) => {
  const { limit } = req.query;
  const cursor = await decodeOwnerCursor(req.query.cursor);
  const page = cursor?.page ?? 1;
  const { items, more } = await listDecks(req.key.user_id, limit, cursor);
  const last = items.at(-1);
  return {
    data: items.map(ownerListItem),
    meta: {
      page,
      limit,
      has_more: more,
      next_cursor: more && last ? await encodeOwnerCursor({ page: page + 1, owner_order: ownerOrder(last), id: last.id }) : null,
    },
  };
});
