/**
 * A deck code in a route's path (contract §10.2): read in either form or from a link holding it (a kards.com
 * deck-builder link's ?hash=, URL-encoded in the path), sent on (308) to its canonical URL
 * form when it is not in it, refused (400 invalid_parameter, saying what is wrong and at which offset)
 * when it does not parse; too long a code is refused before it is read. No catalogue: a code is read alone.
 */
import { invalidParameter } from '#http/errors.ts';
import { moved } from '#http/redirect.ts';
import type { Raw } from '#http/types.ts';
import { type Deck, DeckCodeError } from '#rules/deck-code.ts';
import { codeOfLink, codeTooLong, deckOfSegment, isLink, linkTooLong } from '#rules/url-code.ts';

export type CodeAt = { moved: Raw } | { moved?: undefined; deck: Deck; canonical: string };

/** The deck of the path's code, or the redirect to the route's URL with the canonical form (query kept). */
export function codeAt(req: { params: { code: string }; rawQuery: string }, routePath: string): CodeAt {
  const segment = req.params.code;
  // A link in a code's place (a kards.com deck-builder link): its length bounded, then its code's as any code's.
  const linked = isLink(segment) ? codeOfLink(segment) : undefined;
  const tooLong = isLink(segment) ? (linkTooLong(segment.length) ?? codeTooLong(linked?.length ?? 0)) : codeTooLong(segment.length);
  if (tooLong) throw invalidParameter(`code: ${tooLong}`);
  let read: { deck: Deck; canonical: string };
  try {
    read = deckOfSegment(segment);
  } catch (error) {
    if (error instanceof DeckCodeError) throw invalidParameter(`code is not a deck code: ${error.message}`);
    throw error;
  }
  if (read.canonical !== segment) return { moved: moved(routePath.replace('{code}', read.canonical), req.rawQuery) };
  return read;
}
