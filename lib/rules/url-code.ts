/**
 * A deck code in a URL (contract §10.2): `<main><ally>-<g1>-<g2>-<g3>-<g4>` — the canonical code (§1:
 * ids in each group in base-62 order) with its `%%` dropped and its `|` and `;` written `-`, so that it
 * needs no escaping in a path (e.g. `45---2H-2B2C2D…`). A `{code}` path segment takes this form or the
 * `%%…|…;…` form (URL-encoded); a request by any other spelling of the same deck is sent on (308) to the
 * canonical one, so that a cache holds one copy per deck. Pure.
 */
import { type Deck, encodeDeckCode, parseDeckCode } from './deck-code.ts';

/** The URL form's shape: two faction characters, then four groups of 2-character ids, joined by `-`. */
export const URL_CODE = /^([0-9A-Za-z]{2})-([0-9A-Za-z]*)-([0-9A-Za-z]*)-([0-9A-Za-z]*)-([0-9A-Za-z]*)$/;

/** A deck's canonical code in its URL form. */
export const urlCodeOf = (deck: Deck): string => encodeDeckCode(deck).slice(2).replace('|', '-').replaceAll(';', '-');

/** The deck code a path segment stands for: the URL form made back into `%%…`, any other text as it is (its parse says what is wrong). */
export function codeOfSegment(segment: string): string {
  const form = URL_CODE.exec(segment);
  return form ? `%%${form[1]}|${form[2]};${form[3]};${form[4]};${form[5]}` : segment;
}

/** A path segment's deck and its canonical URL form; the deck code's own error (with its offset) when it does not parse. */
export function deckOfSegment(segment: string): { deck: Deck; canonical: string } {
  const deck = parseDeckCode(codeOfSegment(segment));
  return { deck, canonical: urlCodeOf(deck) };
}
