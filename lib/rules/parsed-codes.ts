/**
 * Parsed deck codes, kept per container: a stored (canonical) code is parsed once however many times a
 * request or its container needs its cards — its snapshot for an answer, its card ids for search
 * entries, its stats. A write remembers the canonical code it derives (deck-write.ts `derive`), so the
 * deck it stores is never parsed again. Frozen: every caller shares them. Client input is never kept
 * here as given: only codes the service encoded or stored.
 */
import { type CardCount, cardsSnapshot, type Deck, parseDeckCode } from './deck-code.ts';

export interface ParsedCode {
  readonly deck: Readonly<Deck>;
  /** The cards as the API shows them (`cards_snapshot`). */
  readonly snapshot: readonly CardCount[];
}

const kept = new Map<string, ParsedCode>();
/** A list page of 50, a search page's decks, a hot shared read: far fewer distinct codes than this. */
const KEPT = 5_000;

const keep = (code: string, deck: Deck): ParsedCode => {
  const parsed: ParsedCode = Object.freeze({
    deck: Object.freeze({ ...deck, cards: Object.freeze(deck.cards.map((c) => Object.freeze({ ...c }))) as CardCount[] }),
    snapshot: Object.freeze(cardsSnapshot(deck.cards).map((c) => Object.freeze({ ...c }))),
  });
  if (kept.size >= KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(code, parsed);
  return parsed;
};

/** A stored deck's code, parsed (once per container). */
export const parsedCode = (code: string): ParsedCode => kept.get(code) ?? keep(code, parseDeckCode(code));

/** Remembers the deck a canonical code was encoded from: the code a write stores is then never parsed. */
export const rememberCode = (code: string, deck: Deck): void => {
  if (!kept.has(code)) keep(code, deck);
};

/** The snapshot of a stored code. */
export const snapshotOf = (code: string): CardCount[] => parsedCode(code).snapshot as CardCount[];
