/**
 * GET /api/v1/codes/:code/deck.txt — a deck code as the game's text export (contract §11.3), its cards named
 * in the language asked; cached minutes, as a code's facts (its names follow the catalogue, which the daily refresh
 * changes with no deploy), its ETag
 * that of its text.
 */
import { catalogue } from '#catalogue/load.ts';
import { validators } from '#http/cache.ts';
import { endpoint } from '#http/types.ts';
import { CODE_TEXT_ROUTES as R } from '#routes/code-text.ts';
import { writeDeckText } from '#rules/deck-text.ts';
import { codeAt } from './code-at.ts';
import { languageHeaders, languageOf } from './language.ts';

export const readCodeText = endpoint(R.readCodeText, { init: [catalogue] }, async (req) => {
  const at = codeAt(req, R.readCodeText.path);
  if (at.moved) return at.moved;
  const language = languageOf(req);
  const text = writeDeckText(at.deck, catalogue(), language);
  const { headers, notModified } = validators(req, text);
  const all = { ...headers, ...languageHeaders(language, catalogue()) };
  if (notModified) return { status: 304, data: undefined, headers: all };
  return { data: undefined, headers: all, raw: { contentType: R.readCodeText.success.contentType, body: text } };
});
