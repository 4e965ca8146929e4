/**
 * A public deck's bands (decks table; contract §13.2, lib/rules/similar.ts): for each of its signature's bands, one
 * small item in the band's partition, so that the decks sharing a band with a deck — its candidates of likeness —
 * are one Query of that partition away, whatever the library's size. Written and deleted with the deck's search
 * entries (store/decks.ts: only while the deck is public), changed only when its cards or main nation change.
 *   pk BAND#<main>.<band>.<rows>   sk <probe rows>#<deck_id>   { deck_code }
 * Its sort key leads with the band's probe rows (lib/rules/similar.ts bandPlaces), so that a crowded band is read by the
 * members that agree on them first (a Query of begins_with).
 * Bounds (contract §11.1): SIMILAR_BANDS items a public deck, each ~200 bytes (its canonical code).
 */

import type { Deck } from '#rules/deck-code.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import { bandPlaces } from '#rules/similar.ts';
import type { StoredDeck } from './deck.ts';
import { itemKind } from './kind.ts';

export const BAND = itemKind('BAND#');
export const bandItemKey = (band: string, probes: string, deckId: string) => ({ pk: BAND.pk(band), sk: `${probes}#${deckId}` });

/** A public deck's band items (none for another visibility). */
export function bandItemsOf(d: Pick<StoredDeck, 'id' | 'visibility' | 'deck_code'>): Record<string, unknown>[] {
  if (d.visibility !== 'public') return [];
  return bandPlaces(parsedCode(d.deck_code).deck).map((band) => ({
    ...bandItemKey(band.key, band.probes.at(-1) as string, d.id),
    deck_code: d.deck_code,
  }));
}

/** The deck a band item names: its id and its cards. */
export function fromBandItem(item: Record<string, unknown>): { id: string; deck: Deck } | undefined {
  try {
    return { id: (item.sk as string).slice((item.sk as string).indexOf('#') + 1), deck: parsedCode(item.deck_code as string).deck };
  } catch {
    return undefined;
  }
}
