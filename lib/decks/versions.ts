/**
 * A deck's history, for its owner (contract §9.2): its kept versions newest first, one version whole,
 * and a restore of one — applied as a PATCH of every writable field would be, under today's rules.
 */
import { catalogue } from '#catalogue/load.ts';
import { cursorKeyAtInit } from '#http/cursor.ts';
import { deckNotFound, validationFailed, versionNotFound } from '#http/errors.ts';
import { endpoint, type OwnerRequest } from '#http/types.ts';
import { checkEmptyObject } from '#rules/empty-body.ts';
import { deckVersion } from '#shapes/deck-bodies.ts';
import { VersionsQuery } from '#shapes/queries.ts';
import { getDeck } from '#store/decks.ts';
import type { StoredVersion } from '#store/items/version.ts';
import { readVersion } from '#store/versions.ts';
import { historyPage, ownerVersionItem, versionParam } from './history.ts';
import { onLatestDeck } from './optimistic.ts';
import { deckPath } from './params.ts';
import { patchDeck } from './update.ts';

export const listOwnerVersions = endpoint('listDeckVersions', { query: VersionsQuery, init: [cursorKeyAtInit] }, async (req) => {
  const { userId, deckId } = deckPath(req);
  const page = await historyPage({ kind: 'owner', of: deckId }, { user_id: userId, id: deckId }, req.query, ownerVersionItem);
  // Every deck keeps its versions from its first (a deck older than versions keeps them from its next
  // change): a first page with none is a deck that is not the caller's, or none at all.
  if (page.data.length === 0 && req.query.cursor === undefined && !(await getDeck(userId, deckId))) throw deckNotFound();
  return page;
});

/** The version a path names, of the caller's deck: 404 version_not_found, or deck_not_found when the deck is not there either. */
async function ownerVersion(req: OwnerRequest<'readDeckVersion'>): Promise<StoredVersion> {
  const { userId, deckId } = deckPath(req);
  const found = await readVersion(userId, deckId, versionParam(req.params.version));
  if (found) return found;
  if (!(await getDeck(userId, deckId))) throw deckNotFound();
  throw versionNotFound();
}

export const readOwnerVersion = endpoint('readDeckVersion', { init: [catalogue] }, async (req) => ({
  data: deckVersion(await ownerVersion(req), catalogue()),
}));

/** A PATCH body that makes a deck's writable fields what they were at `v`. */
function restoring(v: StoredVersion): Record<string, unknown> {
  // A section an old record holds as null is not written (a PATCH writes sections, it does not null them).
  const archive = Object.fromEntries(Object.entries(v.archive).filter(([, section]) => section !== null));
  return {
    deck_code: v.deck_code,
    ...(v.guide ? { guide: v.guide } : {}),
    archive,
    tags: v.tags,
    visibility: v.visibility,
    sort_order: v.sort_order,
    featured_card_id: v.display.featured_card_id,
    card_back_id: v.display.card_back_id,
  };
}

export const restoreOwnerVersion = endpoint('restoreDeckVersion', { init: [catalogue] }, async (req) => {
  const details = checkEmptyObject(req.body, 'a restore');
  if (details.length > 0) throw validationFailed(details);
  const { userId, deckId } = deckPath(req);
  const version = versionParam(req.params.version);
  let restored: StoredVersion | undefined;
  // The deck first (an unknown deck is 404 deck_not_found; If-Match is judged against it), then the version, once.
  return onLatestDeck(req, async (current) => {
    restored ??= await readVersion(userId, deckId, version);
    if (!restored) throw versionNotFound();
    return patchDeck(current, restoring(restored));
  });
});
