/**
 * Whatever a player pastes for a deck (contract §11.3): a `%%` code, its URL form, a link with a code in it
 * (a kards.com deck-builder link `https://www.kards.com/[locale/]decks/deck-builder?hash=<code>`, as
 * alex-weber/katy-kards-bot builds them; a link to this service's code page or facts), or the game's text
 * export (deck-text.ts), its line breaks kept or lost (a one-line field makes them spaces). Pure: the deck, or a PastedDeckError saying what is wrong (a code's own message,
 * with its offset; a text's, with its line).
 */
import type { Catalogue } from './catalogue.ts';
import { type Deck, DeckCodeError, parseDeckCode } from './deck-code.ts';
import { DeckTextError, readDeckText, unflattenDeckText } from './deck-text.ts';
import { LIMITS } from './limits.ts';
import { codeOfLink, codeTooLong, deckOfSegment, URL_LIKE, urlCodeOf } from './url-code.ts';

export class PastedDeckError extends Error {
  override readonly name = 'PastedDeckError';
}

/** The deck a pasted text stands for. */
export function deckOfPaste(pasted: string, catalogue: Catalogue): Deck {
  const text = pasted.trim();
  if (text === '') throw new PastedDeckError("nothing was given: paste a deck code, a kards.com deck link or the game's text export");
  const single = !/[\r\n]/.test(text);
  try {
    const link = single && /^https?:\/\//i.test(text);
    if (link || (single && (text.startsWith('%%') || URL_LIKE.test(text)))) {
      const linked = link ? codeOfLink(text) : undefined;
      if (link && linked === undefined)
        throw new PastedDeckError('the link holds no deck code (a kards.com deck-builder link has one in ?hash=)');
      const code = (linked ?? text).trim();
      const tooLong = codeTooLong(code.length);
      if (tooLong) throw new PastedDeckError(tooLong);
      // A code in its %% form; else a link's code, or a line shaped as the URL form (its own message says what is wrong with it).
      return code.startsWith('%%') ? parseDeckCode(code) : deckOfSegment(code).deck;
    }
    if (text.length > LIMITS.deckTextChars)
      throw new PastedDeckError(`a deck's text has at most ${LIMITS.deckTextChars} characters; this one has ${text.length}`);
    const deck = readDeckText(unflattenDeckText(text), catalogue);
    // Its code as the links to its page, image and facts carry it: one the code routes refuse is refused here, as they say it.
    const tooLong = codeTooLong(urlCodeOf(deck).length);
    if (tooLong) throw new PastedDeckError(`the text's deck: ${tooLong}`);
    return deck;
  } catch (error) {
    if (error instanceof DeckCodeError) throw new PastedDeckError(`not a deck code: ${error.message}`);
    if (error instanceof DeckTextError) throw new PastedDeckError(error.message);
    throw error;
  }
}
