/** POST /api/v1/users/:user_id/decks/replace — swap cards in a code and get the new code; nothing written. */
import { catalogue } from '#catalogue/load.ts';
import { validationFailed } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { OWNER_DECK_ROUTES as R } from '#routes/owner-decks.ts';
import { checkReplace } from '#rules/replace.ts';

export const replaceDeckCards = endpoint(R.replaceCards, { init: [catalogue] }, async (req) => {
  const outcome = checkReplace(req.body, catalogue());
  if (!outcome.ok) throw validationFailed(outcome.details);
  const { deck_code, name, main_faction, ally_faction, cards_snapshot } = outcome.result;
  return { data: { deck_code, name, main_faction, ally_faction, cards_snapshot } };
});
