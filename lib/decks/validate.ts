/** POST /api/v1/users/:user_id/decks/validate — create's rules, nothing written. */
import { catalogue } from '#catalogue/load.ts';
import { validationFailed } from '#http/errors.ts';
import { ownerEndpoint } from '#http/types.ts';
import { checkCreate } from '#rules/deck-write.ts';
import { contentResponse } from './responses.ts';

export const validateOwnerDeck = ownerEndpoint({ init: [catalogue] }, async (req) => {
  const result = checkCreate(req.body, catalogue());
  if (!result.ok) throw validationFailed(result.details);
  return { data: { valid: true, deck: contentResponse(result.content) } };
});
