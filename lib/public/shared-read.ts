/**
 * GET /api/v1/decks/:share_slug — a public or unlisted deck, and one view counted. A private or
 * unknown slug gets the same 404, so nothing tells them apart.
 */

import { publicDeck } from '#decks/responses.ts';
import { deckNotFound } from '#http/errors.ts';
import { publicEndpoint } from '#http/types.ts';
import { deckBySlug, type StoredDeck } from '#store/decks.ts';
import { storedViews } from '#store/view-buckets.ts';
import { countView } from './view-counter.ts';

const SLUG = /^[A-Za-z0-9]{12}$/;

/** A share slug from a path; a malformed one names no deck. */
export function shareSlug(raw: string | undefined): string {
  if (!raw || !SLUG.test(raw)) throw deckNotFound();
  return raw;
}

/** The deck behind a (well-formed) share slug when the public may see it. */
export async function sharedDeck(slug: string): Promise<StoredDeck> {
  const deck = await deckBySlug(slug);
  if (!deck || deck.visibility === 'private') throw deckNotFound();
  return deck;
}

export const readSharedDeck = publicEndpoint({}, async (req) => {
  const slug = shareSlug(req.params.share_slug);
  // The deck and its stored view count are read side by side: one index item and one bucket attribute.
  const [deck, stored] = await Promise.all([sharedDeck(slug), storedViews(slug)]);
  // The view is counted in this container (nothing awaited): shown with the stored total at once.
  const views = stored + countView(deck);
  return { data: publicDeck(deck, { views, likes: deck.likes }), headers: { 'cache-control': 'no-store' } };
});
