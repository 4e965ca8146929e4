/**
 * Decks like this one (contract §12.3): GET /api/v1/decks/{share_slug}/similar and GET /api/v1/codes/{code}/similar —
 * up to 10 public decks of the same main nation most alike by copies (lib/rules/similar.ts), each with its score.
 * Bounded reads whatever the library's size: the main nation's figures (one item: how many decks play each card),
 * then the most viewed entries of the deck's three least played cards' search partitions (at most 100 each).
 */
import { sharedDeck } from '#decks/shared-deck.ts';
import { endpoint } from '#http/types.ts';
import { SIMILAR_ROUTES as R } from '#routes/similar.ts';
import type { Deck } from '#rules/deck-code.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import { mainPool } from '#rules/plays.ts';
import { closest, rarestCards, SIMILAR_PER_CARD } from '#rules/similar.ts';
import { searchItem } from '#shapes/deck-bodies.ts';
import { documentClient } from '#store/client.ts';
import { deckOfEntry } from '#store/items/search-entry.ts';
import { readPools } from '#store/plays.ts';
import { cardPartition } from '#store/search-query.ts';
import { codeAt } from './code-at.ts';

/** The closest public decks to `deck` (`self`: its id, when it is one of the library's), each a search item with its score. */
export async function similarTo(deck: Deck, self?: string) {
  const pool = await readPools([mainPool(deck.main)]);
  const cards = rarestCards(deck, (id) => pool.cards.get(id)?.decks ?? 0);
  const read = (await Promise.all(cards.map((id) => cardPartition(id, deck.main, SIMILAR_PER_CARD)))).flat();
  const candidates = read.flatMap((entry) => {
    const d = deckOfEntry(entry);
    return d ? [{ id: entry.deck_id, views: entry.views, deck: d, entry }] : [];
  });
  return closest(deck, candidates, self).map(({ candidate, score }) => ({ ...searchItem(candidate.entry), score }));
}

export const readSimilarDecks = endpoint(R.readSimilarDecks, { init: [documentClient] }, async (req) => {
  const deck = await sharedDeck(req.params.share_slug);
  return { data: await similarTo(parsedCode(deck.deck_code).deck, deck.id) };
});

export const readSimilarToCode = endpoint(R.readSimilarToCode, { init: [documentClient] }, async (req) => {
  const at = codeAt(req, R.readSimilarToCode.path);
  if (at.moved) return at.moved;
  return { data: await similarTo(at.deck) };
});
