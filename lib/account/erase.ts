/**
 * DELETE /api/v1/users/:user_id (contract §9.4, account:delete) with `{ "confirm": "<user_id>" }`: the
 * erasure recorded, every deck of the account deleted, every key of it revoked, then the answer — the
 * last a key of it gets. The background part, and why: erasure.ts.
 */
import { validationFailed } from '#http/errors.ts';
import { endpoint } from '#http/types.ts';
import { ACCOUNT_ROUTES as R } from '#routes/account.ts';
import { checkErasureBody } from '#rules/erasure.ts';
import { documentClient } from '#store/client.ts';
import { countDecks } from '#store/decks.ts';
import { closeAllKeys, deleteDecks, STEP_LIMITS } from '#store/erasure-steps.ts';
import { requestErasure } from '#store/erasures.ts';

export const eraseOwnAccount = endpoint(R.eraseAccount, { init: [documentClient] }, async (req) => {
  const userId = req.key.user_id;
  const details = checkErasureBody(req.body, userId);
  if (details.length > 0) throw validationFailed(details);
  const erasure = await requestErasure(userId, () => countDecks(userId));
  while ((await deleteDecks(userId, STEP_LIMITS.decks)) > 0);
  await closeAllKeys(userId);
  return { data: { user_id: userId, deleted: true as const, decks: erasure.decks } };
});
