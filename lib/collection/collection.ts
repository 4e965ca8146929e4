/**
 * A player's collection (contract §12.3, collection:write): replace it, add and remove copies. A write is made on the
 * version read, and made again on a newer one when another write came between (nothing lost; with If-Match, 412
 * instead); the rules are lib/rules/collection.ts. A write whose answer was lost is found applied by its request id
 * (store/collections.ts) — unless another write landed between it and that read: then it is made again (rare: a lost
 * answer and a concurrent write at once; a PATCH would then count twice). No Idempotency-Key here yet.
 */
import { catalogue } from '#catalogue/load.ts';
import { pause, WRITE_ATTEMPTS } from '#decks/optimistic.ts';
import { ifMatch } from '#decks/params.ts';
import { preconditionFailed, unavailable, validationFailed } from '#http/errors.ts';
import type { Headed } from '#http/types.ts';
import { endpoint } from '#http/types.ts';
import { COLLECTION_ROUTES as R } from '#routes/collection.ts';
import { changedCollection, type Owned, type Read, readCollectionBody, readCollectionPatch, sameCollection } from '#rules/collection.ts';
import { documentClient } from '#store/client.ts';
import { getCollection, writeCollection } from '#store/collections.ts';
import { collectionAnswer } from './read.ts';

/** `next` of the latest collection written on it, until it lands; If-Match a version the latest is not: 412. */
async function onLatest(req: Headed & { key: { user_id: string }; requestId: string }, next: (owned: Owned) => Read<Owned>) {
  const userId = req.key.user_id;
  const matches = ifMatch(req);
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const current = await getCollection(userId, true);
    if (matches && !matches(current?.version ?? 0)) throw preconditionFailed('the collection');
    const changed = next(current?.cards ?? {});
    if (!changed.ok) throw validationFailed(changed.details);
    // A write that changes nothing writes nothing: its version and ETag stay (an If-Match held elsewhere still holds).
    if (sameCollection(current?.cards ?? {}, changed.value)) return collectionAnswer(current);
    const written = await writeCollection(userId, current, changed.value, req.requestId);
    if (written) return collectionAnswer(written);
    await pause(attempt);
  }
  throw unavailable('the collection is being changed by many requests at once; retry');
}

export const putOwnCollection = endpoint(R.putCollection, { init: [catalogue, documentClient] }, async (req) => {
  const read = readCollectionBody(req.body, catalogue());
  if (!read.ok) throw validationFailed(read.details);
  return onLatest(req, () => read);
});

export const patchOwnCollection = endpoint(R.patchCollection, { init: [catalogue, documentClient] }, async (req) => {
  const change = readCollectionPatch(req.body, catalogue());
  if (!change.ok) throw validationFailed(change.details);
  return onLatest(req, (owned) => changedCollection(owned, change.value));
});
