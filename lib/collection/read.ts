/**
 * GET /api/v1/users/:user_id/collection (contract §12.3, collection:read): the copies the account owns. Apart from
 * the writes, so that its function ships no catalogue (it judges no card).
 */
import { etag } from '#decks/params.ts';
import { endpoint } from '#http/types.ts';
import { COLLECTION_ROUTES as R } from '#routes/collection.ts';
import { documentClient } from '#store/client.ts';
import { getCollection } from '#store/collections.ts';
import type { StoredCollection } from '#store/items/collection.ts';

/** The collection as answers show it. */
export function collectionAnswer(stored: StoredCollection | undefined) {
  const cards = stored?.cards ?? {};
  return {
    data: {
      cards,
      copies: Object.values(cards).reduce((n, c) => n + c, 0),
      distinct: Object.keys(cards).length,
      version: stored?.version ?? 0,
      updated_at: stored?.updated_at ?? null,
    },
    headers: { etag: etag(stored?.version ?? 0) },
  };
}

export const readOwnCollection = endpoint(R.readCollection, { init: [documentClient] }, async (req) =>
  collectionAnswer(await getCollection(req.key.user_id)),
);
