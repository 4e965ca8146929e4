/** A public or unlisted deck by its share slug: shared reads, OTK charts and likes find decks this way. */
import { deckNotFound } from '#http/errors.ts';
import { isShareSlug } from '#rules/ids.ts';
import { deckBySlug } from '#store/decks.ts';
import type { StoredDeck } from '#store/items/deck.ts';

/** A share slug from a query (a path's is parsed by its route: lib/routes/params.ts); a malformed one names no deck. */
export function shareSlug(raw: string | undefined): string {
  if (!raw || !isShareSlug(raw)) throw deckNotFound();
  return raw;
}

/** The deck behind a (well-formed) share slug when the public may see it. */
export async function sharedDeck(slug: string): Promise<StoredDeck> {
  const deck = await deckBySlug(slug);
  if (!deck || deck.visibility === 'private') throw deckNotFound();
  return deck;
}
