/** GET /api/v1/users/:user_id/decks/:deck_id/versions — a deck's history, newest first (contract §9.2). */
import { cursorKeyAtInit } from '#http/cursor.ts';
import { deckNotFound } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { HISTORY_ROUTES as R } from '#routes/history.ts';
import { getDeck } from '#store/decks.ts';
import { historyPage, ownerVersionItem } from './history.ts';
import { deckPath } from './params.ts';

export const listOwnerVersions = endpoint(R.listDeckVersions, { init: [cursorKeyAtInit] }, async (req) => {
  const { userId, deckId } = deckPath(req);
  const page = await historyPage({ kind: 'owner', of: deckId }, { user_id: userId, id: deckId }, req.query, ownerVersionItem);
  // Every deck keeps its versions from its first (a deck older than versions keeps them from its next
  // change): a first page with none is a deck that is not the caller's, or none at all.
  if (page.data.length === 0 && req.query.cursor === undefined && !(await getDeck(userId, deckId))) throw deckNotFound();
  return page;
});
