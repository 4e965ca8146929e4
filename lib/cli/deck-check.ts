/** `deckctl deck check CODE`: the deck rules applied to one code (contract §7), in either form or in a link. */
import type { Catalogue } from '#rules/catalogue.ts';
import { checkDeck } from '#rules/deck-rules.ts';
import { derivedWithCards, readDeckCode } from '#rules/deck-write.ts';
import type { Detail } from '#rules/details.ts';
import { codeOfLink, codeOfSegment, isLink, URL_LIKE } from '#rules/url-code.ts';

export interface DeckCheck {
  valid: boolean;
  deck_code: string;
  name: string | null;
  main_faction: string | null;
  ally_faction: string | null;
  cards_snapshot: { card_id: string; count: number }[] | null;
  errors: Detail[];
}

export function deckCheck(given: string, catalogue: Catalogue): DeckCheck {
  // A link holding a code (a kards.com deck-builder link) is read as its code; a code's URL form as its %% form.
  const linked = isLink(given) ? (codeOfLink(given) ?? given) : given.trim();
  const code = URL_LIKE.test(linked) ? codeOfSegment(linked).code : linked;
  const deck = readDeckCode(code);
  if ('path' in deck) {
    return {
      valid: false,
      deck_code: code.trim(),
      name: null,
      main_faction: null,
      ally_faction: null,
      cards_snapshot: null,
      errors: [deck],
    };
  }
  const errors = checkDeck(deck, catalogue);
  // A code whose counts cannot be re-encoded never parses, so derivedWithCards() is safe here.
  return { valid: errors.length === 0, ...derivedWithCards(deck), errors };
}

export function formatDeckCheck(r: DeckCheck): string {
  const head = r.valid ? `valid: ${r.name}` : `invalid${r.name ? `: ${r.name}` : ''}`;
  const lines = [head, `code: ${r.deck_code}`];
  for (const e of r.errors) lines.push(`  ${e.code} (${e.path}): ${e.message}`);
  return lines.join('\n');
}
