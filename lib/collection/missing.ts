/**
 * GET /api/v1/users/:user_id/collection/missing (contract §12.3, collection:read): what a deck still needs of the
 * caller's collection — a deck by `code` (a code in either form, a link, the game's text export) or by `slug` (a
 * public or unlisted deck) — each card named in the answer's language. Reads a key: never cached.
 */
import { catalogue } from '#catalogue/load.ts';
import { sharedDeck } from '#decks/shared-deck.ts';
import { invalidParameter, validationFailed } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { languageHeaders, languageOf } from '#public/language.ts';
import { COLLECTION_ROUTES as R } from '#routes/collection.ts';
import { cardName } from '#rules/card.ts';
import { missingOf } from '#rules/collection.ts';
import { type Deck, encodeDeckCode } from '#rules/deck-code.ts';
import { detail } from '#rules/details.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import { deckOfPaste, PastedDeckError } from '#rules/pasted-deck.ts';
import { documentClient } from '#store/client.ts';
import { getCollection } from '#store/collections.ts';

/** The deck the query names: by its code (or link, or text) or by its share slug, one of the two. */
async function deckAsked(query: { code?: string; slug?: string }): Promise<Deck> {
  if ((query.code === undefined) === (query.slug === undefined)) throw invalidParameter('name the deck by code or by slug, one of the two');
  if (query.slug !== undefined) return parsedCode((await sharedDeck(query.slug)).deck_code).deck;
  try {
    return deckOfPaste(query.code as string, catalogue());
  } catch (error) {
    if (error instanceof PastedDeckError) throw validationFailed([detail('code', 'invalid_deck_code', error.message)]);
    throw error;
  }
}

export const readOwnMissing = endpoint(R.readMissing, { init: [catalogue, documentClient] }, async (req) => {
  const [deck, collection] = await Promise.all([deckAsked(req.query), getCollection(req.key.user_id)]);
  const language = languageOf(req);
  const { cards, ...missing } = missingOf(deck, collection?.cards ?? {}, catalogue());
  return {
    data: {
      deck_code: encodeDeckCode(deck),
      main_faction: deck.main,
      ally_faction: deck.ally,
      ...missing,
      cards: cards.map(({ card_id, count }) => {
        const card = catalogue().get(card_id);
        return {
          card_id,
          count,
          name: card ? cardName(card, language) : null,
          rarity: card?.rarity ?? null,
          nation: card?.faction ?? null,
        };
      }),
    },
    headers: languageHeaders(language, catalogue()),
  };
});
