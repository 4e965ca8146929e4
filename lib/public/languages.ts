/**
 * GET /api/v1/languages — the languages answers are given in (contract §11.5): the served languages
 * (rules/languages.ts, each with its labels: rules/labels.ts) that the catalogue names its cards in, since a
 * language it lacks is answered in English (answerLanguage). Cacheable: it changes only with a deployment.
 */
import { catalogue } from '#catalogue/load.ts';
import { cacheable } from '#http/cache.ts';
import { endpoint } from '#http/types.ts';
import * as R from '#routes/cards.ts';
import { SERVED_LANGUAGES } from '#rules/languages.ts';

export const listLanguages = endpoint(R.listLanguages, { init: [catalogue] }, async (req) => {
  const named = catalogue().languages;
  return cacheable(
    req,
    SERVED_LANGUAGES.filter(({ tag }) => named.has(tag)).map(({ tag, name }) => ({ tag, name })),
  );
});
