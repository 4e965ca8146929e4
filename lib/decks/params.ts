/** Path, header and query parameters of the owner routes. */
import type { Headed } from '#http/types.ts';
import type { ApiKey } from '#store/items/api-key.ts';

/** The caller's user id (auth has matched it to the key) and the deck id (its route has parsed it: lib/routes/params.ts). */
export const deckPath = (req: { params: { deck_id: string }; key: ApiKey }): { userId: string; deckId: string } => ({
  userId: req.key.user_id,
  deckId: req.params.deck_id,
});

/**
 * `If-Match` (RFC 9110 §13.1.1): `*`, or a list of entity tags, any of which may match. A deck's tag is
 * `"<version>"` (etag below), compared strongly — a weak tag (`W/"3"`) never matches — and as an opaque string
 * (`"03"` is not `"3"`). Answers whether the deck's version matches; undefined when there is no condition
 * (no header, or `*`: any deck there is). A header that is not such a list matches nothing (412).
 */
export function ifMatch(req: Headed): ((version: number) => boolean) | undefined {
  const raw = req.headers['if-match']?.trim();
  if (raw === undefined || raw === '*') return undefined;
  const tags = raw.split(',').map((t) => t.trim());
  const strong = tags.every((t) => /^(?:W\/)?"[\x21\x23-\x7E\x80-\uFFFF]*"$/.test(t)) ? tags.filter((t) => !t.startsWith('W/')) : [];
  return (version) => strong.includes(etag(version));
}

export const etag = (version: number) => `"${version}"`;
