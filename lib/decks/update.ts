/**
 * PATCH /api/v1/users/:user_id/decks/:deck_id — apply a partial update and re-judge the whole deck,
 * written only if the deck is still the version read (optimistic.ts), and only if it changes anything.
 */
import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { validationFailed } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { OWNER_DECK_ROUTES as R } from '#routes/owner-decks.ts';
import { changedFields } from '#rules/changed-fields.ts';
import { checkPatch } from '#rules/deck-write.ts';
import { ownerDeck } from '#shapes/deck-bodies.ts';
import { replaceDeck } from '#store/decks.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { onLatestDeck } from './optimistic.ts';
import { etag } from './params.ts';

/**
 * A PATCH body applied to the deck as read (what a restore applies too): 422 when the result breaks a
 * rule; the deck as it is when it changes nothing; undefined when someone changed the deck first.
 */
export async function patchDeck(current: StoredDeck, body: Record<string, unknown>) {
  const result = checkPatch(body, current, catalogue(), archetypeRules());
  if (!result.ok) throw validationFailed(result.details);
  // A PATCH that changes nothing writes nothing: the deck keeps its version, ETag and updated_at (its
  // version counts changes: contract §3, §9.2), and no version is kept.
  if (changedFields(current, result.content).length === 0)
    return { data: ownerDeck(current, catalogue()), headers: { etag: etag(current.version) } };
  const next = { ...current, ...result.content, updated_at: new Date().toISOString(), version: current.version + 1 };
  if (!(await replaceDeck(next, current))) return undefined;
  return { data: ownerDeck(next, catalogue()), headers: { etag: etag(next.version) } };
}

export const updateOwnerDeck = endpoint(R.updateDeck, { init: [catalogue, archetypeRules] }, (req) =>
  onLatestDeck(req, (current) => patchDeck(current, req.body)),
);
