/** Path, header and query parameters of the owner routes. */
import { preconditionFailed } from '#http/errors.ts';
import type { Headed } from '#http/types.ts';
import type { ApiKey } from '#store/items/api-key.ts';

/** The caller's user id (auth has matched it to the key) and the deck id (its route has parsed it: lib/routes/params.ts). */
export const deckPath = (req: { params: { deck_id: string }; key: ApiKey }): { userId: string; deckId: string } => ({
  userId: req.key.user_id,
  deckId: req.params.deck_id,
});

/**
 * `If-Match: "<version>"`, compared strongly (RFC 9110 §13.1.1): a weak tag (`W/"3"`) never matches, a value
 * naming no version matches none (412); `*` matches any deck there is.
 */
export function ifMatch(req: Headed): number | undefined {
  const raw = req.headers['if-match']?.trim();
  if (raw === undefined || raw === '*') return undefined;
  const m = /^"(\d{1,15})"$/.exec(raw);
  if (!m) throw preconditionFailed();
  return Number(m[1]);
}

export const etag = (version: number) => `"${version}"`;
