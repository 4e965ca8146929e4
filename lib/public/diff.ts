/**
 * GET /api/v1/decks/diff?from=&to= — two decks compared (contract §9.2): each a public or unlisted deck
 * by its share slug, or a deck code; the cards added, removed and kept, and both decks' stats against
 * the catalogue the service runs with now. Counts no view (it is not a shared read).
 */
import { catalogue } from '#catalogue/load.ts';
import { sharedDeck, shareSlug } from '#decks/shared-deck.ts';
import { invalidParameter } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { HISTORY_ROUTES as R } from '#routes/history.ts';
import { cardChanges } from '#rules/card-changes.ts';
import { type Deck, DeckCodeError, encodeDeckCode, parseDeckCode } from '#rules/deck-code.ts';
import { deckName } from '#rules/factions.ts';
import { deckStats } from '#rules/insight.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import { documentClient } from '#store/client.ts';

/** A deck a query names: a code (it starts with %%), else a share slug. */
async function named(name: string, ref: string): Promise<{ deck: Deck; deck_code: string }> {
  if (ref.startsWith('%%')) {
    try {
      const deck = parseDeckCode(ref);
      return { deck, deck_code: encodeDeckCode(deck) };
    } catch (e) {
      if (e instanceof DeckCodeError) throw invalidParameter(`${name} is not a deck code: ${e.message}`);
      throw e;
    }
  }
  const stored = await sharedDeck(shareSlug(ref));
  return { deck: parsedCode(stored.deck_code).deck, deck_code: stored.deck_code };
}

const side = ({ deck, deck_code }: { deck: Deck; deck_code: string }) => ({
  deck_code,
  name: deckName(deck.main, deck.ally),
  main_faction: deck.main,
  ally_faction: deck.ally,
});

export const diffDecks = endpoint(R.diffDecks, { init: [catalogue, documentClient] }, async (req) => {
  const [from, to] = await Promise.all([named('from', req.query.from), named('to', req.query.to)]);
  return {
    data: {
      from: side(from),
      to: side(to),
      ...cardChanges(from.deck.cards, to.deck.cards),
      stats: { from: deckStats(from.deck, catalogue()), to: deckStats(to.deck, catalogue()) },
    },
  };
});
