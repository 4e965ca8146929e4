/**
 * POST /api/v1/users/:user_id/decks/:deck_id/versions/:version/restore — a deck made what it was at a
 * version (contract §9.2): applied as a PATCH of every writable field would be, under today's rules.
 */

import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { validationFailed, versionNotFound } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { HISTORY_ROUTES as R } from '#routes/history.ts';
import { plainOf } from '#rules/deck-fields.ts';
import { checkEmptyObject } from '#rules/empty-body.ts';
import type { StoredVersion } from '#store/items/version.ts';
import { readVersion } from '#store/versions.ts';
import { onLatestDeck } from './optimistic.ts';
import { deckPath } from './params.ts';
import { patchDeck } from './update.ts';

/** A PATCH body that makes a deck's writable fields what they were at `v`. */
function restoring(v: StoredVersion): Record<string, unknown> {
  // A section an older deck holds as null is not written (a PATCH writes sections, it does not null them).
  const archive = Object.fromEntries(Object.entries(v.archive).filter(([, section]) => section !== null));
  return {
    deck_code: v.deck_code,
    ...(v.guide ? { guide: v.guide } : {}),
    archive,
    ...plainOf(v),
    featured_card_id: v.display.featured_card_id,
    card_back_id: v.display.card_back_id,
  };
}

export const restoreOwnerVersion = endpoint(R.restoreDeckVersion, { init: [catalogue, archetypeRules] }, async (req) => {
  const details = checkEmptyObject(req.body, 'a restore');
  if (details.length > 0) throw validationFailed(details);
  const { userId, deckId } = deckPath(req);
  const version = req.params.version;
  let restored: StoredVersion | undefined;
  // The deck first (an unknown deck is 404 deck_not_found; If-Match is judged against it), then the version, once.
  return onLatestDeck(req, async (current) => {
    restored ??= await readVersion(userId, deckId, version);
    if (!restored) throw versionNotFound();
    return patchDeck(current, restoring(restored));
  });
});
