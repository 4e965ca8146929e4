/**
 * Decks like this one (contract §12.3, §13.2): GET /api/v1/decks/{share_slug}/similar and GET /api/v1/codes/{code}/similar —
 * up to 10 public decks of the same main nation most alike by copies (lib/rules/similar.ts), each with its score.
 * Candidates by the deck's whole card set: the decks that share one of its MinHash bands (at most SIMILAR_PER_BAND of
 * each of SIMILAR_BANDS bands: a bounded read at any library size), scored exactly; the closest answered by their
 * `all` search entries (a deck no longer public has none, and is left out).
 */
import { sharedDeck } from '#decks/shared-deck.ts';
import { endpoint } from '#http/types.ts';
import * as R from '#routes/similar.ts';
import type { Deck } from '#rules/deck-code.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import { bandPlaces, closest, SIMILAR_MOST, SIMILAR_PER_BAND, SIMILAR_SPARE } from '#rules/similar.ts';
import { searchItem } from '#shapes/deck-bodies.ts';
import { bandMembers, publicEntries } from '#store/bands.ts';
import { documentClient } from '#store/client.ts';
import { codeAt } from './code-at.ts';

/** The closest public decks to `deck` (`self`: its id, when it is one of the library's), each a search item with its score. */
export async function similarTo(deck: Deck, self?: string) {
  const members = (await Promise.all(bandPlaces(deck).map((place) => bandMembers(place, SIMILAR_PER_BAND)))).flat();
  const candidates = [...new Map(members.map((m) => [m.id, m])).values()];
  const ranked = closest(deck, candidates, self, SIMILAR_MOST + SIMILAR_SPARE);
  const entries = await publicEntries(ranked.map((r) => r.candidate.id));
  return ranked
    .flatMap(({ score }, i) => {
      const entry = entries[i];
      return entry ? [{ ...searchItem(entry), score }] : [];
    })
    .slice(0, SIMILAR_MOST);
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
