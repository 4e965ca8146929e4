/** POST /api/v1/users/:user_id/decks/validate — create's rules, nothing written. */
import { catalogue } from '#catalogue/load.ts';
import { validationFailed } from '#http/errors.ts';
import type { Endpoint } from '#http/types.ts';
import { checkCreate } from '#rules/deck-write.ts';
import { contentView } from './views.ts';

export const validateOwnerDeck: Endpoint = async (req) => {
  const result = checkCreate(req.body, catalogue());
  if (!result.ok) throw validationFailed(result.details);
  return { data: { valid: true, deck: contentView(result.content) } };
};
