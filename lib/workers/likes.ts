/**
 * A like counter changed: fold its count into the deck and its search entries when due (likes exact
 * up to 10, within 10% beyond: folds.ts). The counter's image carries the count and its order
 * (`changes`), so nothing is read but the deck.
 */

import { likesFoldDue } from '#rules/folds.ts';
import { deckBySlug } from '#store/decks.ts';
import { foldDeck } from '#store/folds.ts';

export async function likesMoved(slug: string, likes: number, changes: number): Promise<void> {
  const deck = await deckBySlug(slug);
  if (!deck) return;
  const folded = deck.likes_changes ?? 0;
  // At or past this change already (a retry of a fold that stopped half-way): its entries are brought up to it.
  if (folded >= changes || likesFoldDue(likes, deck.likes)) await foldDeck(deck, { field: 'likes', value: likes, changes });
}
