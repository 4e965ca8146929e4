/**
 * POST /api/v1/codes — a pasted deck's facts (contract §11.3): the game's text export, a code in either form,
 * or a link holding one, sent as text/plain; the facts of its canonical code as GET /api/v1/codes/{code}
 * answers them. What cannot be read is 422, its detail naming the line (or the code's offset).
 */
import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { utf8Text } from '#http/body.ts';
import { validationFailed } from '#http/errors.ts';
import { originOf } from '#http/origin.ts';
import { endpoint } from '#http/types.ts';
import { CODE_TEXT_ROUTES as R } from '#routes/code-text.ts';
import { detail } from '#rules/details.ts';
import { deckOfPaste, PastedDeckError } from '#rules/pasted-deck.ts';
import { urlCodeOf } from '#rules/url-code.ts';
import { codeAnswer } from './codes.ts';
import { languageHeaders, languageOf } from './language.ts';

export const readPastedCode = endpoint(R.readPastedCode, { init: [catalogue, archetypeRules] }, async (req) => {
  const text = utf8Text(req.body);
  let deck: ReturnType<typeof deckOfPaste>;
  try {
    deck = deckOfPaste(text, catalogue());
  } catch (error) {
    if (error instanceof PastedDeckError) throw validationFailed([detail('body', 'invalid_deck_code', error.message)]);
    throw error;
  }
  const language = languageOf(req);
  return { data: codeAnswer(deck, urlCodeOf(deck), originOf(req), catalogue(), language), headers: languageHeaders(language, catalogue()) };
});
