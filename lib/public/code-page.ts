/**
 * GET /c/:code — the page of any deck code (contract §10.2): the share page without author, guide or
 * views, its Open Graph and Twitter image the code's image, so a pasted link unfurls as a picture.
 * Counts no view (there is no deck). A code that does not parse, or a bad query, answers a 400 page.
 */
import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import type { ApiError } from '#http/errors.ts';
import { originOf } from '#http/origin.ts';
import { endpoint } from '#http/types.ts';
import { CODE_ROUTES as R } from '#routes/codes.ts';
import { archetypeAnswer } from '#rules/archetype-of.ts';
import { badCodePage, sharePage } from '#share/page.ts';
import { codeSheet } from '#share/sheet.ts';
import { codeAt } from './code-at.ts';
import { codeLinks } from './codes.ts';
import { htmlPage } from './html.ts';
import { languageHeaders, languageOf } from './language.ts';

const htmlError = (error: ApiError) => htmlPage(400, badCodePage(error.message));

export const readCodePage = endpoint(R.readCodePage, { init: [catalogue, archetypeRules], htmlError }, async (req) => {
  const at = codeAt(req, R.readCodePage.path);
  if (at.moved) return at.moved;
  const language = languageOf(req);
  const links = codeLinks(originOf(req), at.canonical, language);
  // Nothing counted and nothing private: cached, but minutes only — its names and its image's URL follow the
  // catalogue, which the daily refresh changes with no deploy (contract §11.5); the image is the one cached a day.
  const archetype = archetypeAnswer(archetypeRules(), at.deck, language)?.name ?? null;
  return htmlPage(
    200,
    sharePage({ ...codeSheet(at.deck, catalogue(), language), archetype }, links),
    languageHeaders(language, catalogue()),
  );
});
