/**
 * GET /api/v1/languages — the languages answers are given in (contract §11.5, §12.5): every served language
 * (rules/languages.ts, each with its labels: rules/labels.ts), and the language its card names come in — it, or
 * English where the catalogue does not name its cards in it (cardNamesIn). Cacheable: it changes only with a
 * deployment or a catalogue.
 */
import { catalogue } from '#catalogue/load.ts';
import { cacheable } from '#http/cache.ts';
import { endpoint } from '#http/types.ts';
import { CARD_ROUTES as R } from '#routes/cards.ts';
import { cardNamesIn, SERVED_LANGUAGES } from '#rules/languages.ts';

export const listLanguages = endpoint(R.listLanguages, { init: [catalogue] }, async (req) => {
  const named = catalogue().languages;
  return cacheable(
    req,
    SERVED_LANGUAGES.map(({ tag, name }) => ({ tag, name, card_names: cardNamesIn(tag, named) })),
  );
});
