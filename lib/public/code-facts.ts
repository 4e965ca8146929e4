/** GET /api/v1/codes/:code — any deck code's facts (contract §10.2): nothing stored, nothing read but the catalogue. */
import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { cacheable } from '#http/cache.ts';
import { originOf } from '#http/origin.ts';
import { endpoint } from '#http/types.ts';
import { CODE_ROUTES as R } from '#routes/codes.ts';
import { codeAt } from './code-at.ts';
import { codeAnswer } from './codes.ts';
import { languageHeaders, languageOf } from './language.ts';

export const readCode = endpoint(R.readCode, { init: [catalogue, archetypeRules] }, async (req) => {
  const at = codeAt(req, R.readCode.path);
  if (at.moved) return at.moved;
  const language = languageOf(req);
  const data = codeAnswer(at.deck, at.canonical, originOf(req), catalogue(), language);
  return cacheable(req, data, undefined, languageHeaders(language, catalogue()));
});
