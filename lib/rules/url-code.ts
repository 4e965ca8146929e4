/**
 * A deck code in a URL (contract §10.2): `<main><ally>-<g1>-<g2>-<g3>-<g4>` — the canonical code (§1:
 * ids in each group in base-62 order) with its `%%` dropped and its `|` and `;` written `-`, so that it
 * needs no escaping in a path (e.g. `45---2H-2B2C2D…`). A `{code}` path segment takes this form, the
 * `%%…|…;…` form or a link holding a code (a kards.com deck-builder link; URL-encoded); a request by any other
 * spelling of the same deck is sent on (308) to the canonical one, so that a cache holds one copy per deck. Pure.
 */
import { type Deck, DeckCodeError, encodeDeckCode, parseDeckCode } from './deck-code.ts';
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

/** A line that can only be meant as a code's URL form: two characters, a dash, then code characters and dashes. */
export const URL_LIKE = /^[0-9A-Za-z]{2}-[0-9A-Za-z-]*$/;

/** Whether a text is a link (http or https). */
export const isLink = (text: string): boolean => /^https?:\/\//i.test(text.trim());

/**
 * A link's deck code: its `hash` parameter (a kards.com deck-builder link, `https://www.kards.com/[locale/]decks/
 * deck-builder?hash=<code>`, as alex-weber/katy-kards-bot builds them), else its last path segment (a link to this
 * service's code page or facts); undefined when it is no URL or holds neither.
 */
export function codeOfLink(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  const hash = url.searchParams.get('hash');
  if (hash !== null) return hash;
  const last = url.pathname.split('/').filter(Boolean).at(-1);
  if (last === undefined) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** What the code routes say of a link in a code's place longer than they take. */
export const linkTooLong = (chars: number): string | undefined =>
  chars > LIMITS.deckLinkChars
    ? `a link in a code's place has at most ${LIMITS.deckLinkChars} characters; this one has ${chars}`
    : undefined;

/**
 * A path segment's deck and its canonical URL form — the segment a code in either form, or a link holding one
 * (its code read as a segment) — or the deck code's own error (its offset in the segment, or in the link's code).
 */
export function deckOfSegment(segment: string): { deck: Deck; canonical: string } {
  const linked = isLink(segment) ? codeOfLink(segment) : undefined;
  if (isLink(segment) && linked === undefined)
    throw new DeckCodeError('the link holds no deck code (a kards.com deck-builder link has one in ?hash=)', 0);
  const { code, origin } = codeOfSegment(linked ?? segment);
  try {
    const deck = parseDeckCode(code, origin);
    return { deck, canonical: urlCodeOf(deck) };
  } catch (error) {
    if (linked === undefined || !(error instanceof DeckCodeError)) throw error;
    throw new DeckCodeError(
      `the link's code does not read (${error.message}); a kards.com deck-builder link has its code in ?hash=`,
      error.offset,
    );
  }
}
