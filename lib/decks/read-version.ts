/**
 * GET /api/v1/users/:user_id/decks/:deck_id/versions/:version — one version of a deck, whole: the owner
 * deck as it was (contract §9.2), judged against today's catalogue.
 */
import { catalogue } from '#catalogue/load.ts';
import { deckNotFound, versionNotFound } from '#http/errors.ts';
import { endpoint, type OwnerRequest } from '#http/types.ts';
import { HISTORY_ROUTES as R } from '#routes/history.ts';
import { deckVersion } from '#shapes/deck-bodies.ts';
import { getDeck } from '#store/decks.ts';
import type { StoredVersion } from '#store/items/version.ts';
import { readVersion } from '#store/versions.ts';
import { deckPath } from './params.ts';

/** The version a path names, of the caller's deck: 404 version_not_found, or deck_not_found when the deck is not there either. */
async function ownerVersion(req: OwnerRequest<typeof R.readDeckVersion>): Promise<StoredVersion> {
  const { userId, deckId } = deckPath(req);
  const found = await readVersion(userId, deckId, req.params.version);
  if (found) return found;
  if (!(await getDeck(userId, deckId))) throw deckNotFound();
  throw versionNotFound();
}

export const readOwnerVersion = endpoint(R.readDeckVersion, { init: [catalogue] }, async (req) => ({
  data: deckVersion(await ownerVersion(req), catalogue()),
}));
