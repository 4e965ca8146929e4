/**
 * A deck code in a URL (contract §10.2): `<main><ally>-<g1>-<g2>-<g3>-<g4>` — the canonical code (§1:
 * ids in each group in base-62 order) with its `%%` dropped and its `|` and `;` written `-`, so that it
 * needs no escaping in a path (e.g. `45---2H-2B2C2D…`). A `{code}` path segment takes this form or the
 * `%%…|…;…` form (URL-encoded); a request by any other spelling of the same deck is sent on (308) to the
 * canonical one, so that a cache holds one copy per deck. Pure.
 */
import { type Deck, encodeDeckCode, parseDeckCode } from './deck-code.ts';
import { LIMITS } from './limits.ts';

export { URL_CODE } from './ids.ts';

/** A deck's canonical code in its URL form. */
export const urlCodeOf = (deck: Deck): string => encodeDeckCode(deck).slice(2).replace('|', '-').replaceAll(';', '-');

/** What the code routes say of a code longer than they take (LIMITS.deckCodeChars), and a paste whose deck's code would be. */
export const codeTooLong = (chars: number): string | undefined =>
  chars > LIMITS.deckCodeChars ? `a deck code has at most ${LIMITS.deckCodeChars} characters; this one has ${chars}` : undefined;

/**
 * The deck code a path segment stands for, and where that code's first character stands in the segment:
 * a `%%…` segment as it is; any other read as the URL form (its first `-` the `|`, the others `;`, the
 * `%%` put back: so its offsets are 2 less), so that what is wrong with it is said where it is.
 */
export function codeOfSegment(segment: string): { code: string; origin: number } {
  if (segment.trimStart().startsWith('%%')) return { code: segment, origin: 0 };
  // The white space a code's `%%` form may have around it (any of JavaScript's, U+FEFF and U+3000 among them), trimmed here too.
  const lead = segment.length - segment.trimStart().length;
  return { code: `%%${segment.trim().replace('-', '|').replaceAll('-', ';')}`, origin: lead - 2 };
}

/** A path segment's deck and its canonical URL form; the deck code's own error (its offset in the segment) when it does not parse. */
export function deckOfSegment(segment: string): { deck: Deck; canonical: string } {
  const { code, origin } = codeOfSegment(segment);
  const deck = parseDeckCode(code, origin);
  return { deck, canonical: urlCodeOf(deck) };
}
