/** POST /api/v1/users/:user_id/decks/validate — create's rules, nothing written. */
import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { validationFailed } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { OWNER_DECK_ROUTES as R } from '#routes/owner-decks.ts';
import { checkCreate } from '#rules/deck-write.ts';
import { contentResponse } from '#shapes/deck-bodies.ts';

export const validateOwnerDeck = endpoint(R.validateDeck, { init: [catalogue, archetypeRules] }, async (req) => {
  const result = checkCreate(req.body, catalogue(), archetypeRules());
  if (!result.ok) throw validationFailed(result.details);
  return { data: { valid: true as const, deck: contentResponse(result.content) } };
});
