/** GET /api/v1/cards/:card_id — one card, cacheable (it changes only with a deployment). Apart from the
 * list so that its function carries no cursor key. */
import { catalogue } from '#catalogue/load.ts';
import { cacheable } from '#http/cache.ts';
import { ApiError } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { CARD_ROUTES as R } from '#routes/cards.ts';
import { languageHeaders, languageOf, localCard } from './language.ts';

export const readCard = endpoint(R.readCard, { init: [catalogue] }, async (req) => {
  const card = catalogue().get(req.params.card_id ?? '');
  if (!card) throw new ApiError(404, 'card_not_found', 'no such card in the catalogue');
  const language = languageOf(req);
  return cacheable(req, localCard(card, language), undefined, languageHeaders(language, catalogue()));
});
