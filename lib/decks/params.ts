/** Path, header and query parameters of the owner routes. */
import { deckNotFound, preconditionFailed } from '#http/errors.ts';
import type { Headed } from '#http/types.ts';
import type { ApiKey } from '#store/items/api-key.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The caller's user id (auth has matched it to the key) and the deck id; a malformed id is no deck. */
export function deckPath(req: { params: { deck_id: string }; key: ApiKey }): { userId: string; deckId: string } {
  const deckId = req.params.deck_id ?? '';
  if (!UUID.test(deckId)) throw deckNotFound();
  return { userId: req.key.user_id, deckId };
}

/** `If-Match: "<version>"` (weak or strong; `*` matches any). A value naming no version matches none. */
export function ifMatch(req: Headed): number | undefined {
  const raw = req.headers['if-match']?.trim();
  if (raw === undefined || raw === '*') return undefined;
  const m = /^(?:W\/)?"(\d{1,15})"$/.exec(raw);
  if (!m) throw preconditionFailed();
  return Number(m[1]);
}

export const etag = (version: number) => `"${version}"`;
