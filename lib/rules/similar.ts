/**
 * Decks like this one (contract §12.3), pure: how alike two decks are by their copies — Σ min(copies) / Σ max(copies)
 * over the cards of both (1 for the same cards and copies, 0 for none shared) — which of a deck's cards its candidates
 * are found by (the fewest other decks of its main nation play: their search partitions are the smallest, and any deck
 * alike holds most of them), and the closest of the candidates: the same main nation, the deck itself and its exact
 * copies (the same canonical code: the same nations, cards and copies) left out, each other code once (the copy most
 * viewed), most alike first, ties by views, then by id.
 */
import type { CardCount, Deck } from './deck-code.ts';

/** Most decks a likeness answer lists. */
export const SIMILAR_MOST = 10;
/** The deck's cards whose search partitions give the candidates. */
export const SIMILAR_CARDS = 3;
/** Most entries read of each of those partitions (most viewed first). */
export const SIMILAR_PER_CARD = 100;

/** Σ min(copies) / Σ max(copies) over the cards of both decks. */
export function likeness(a: readonly CardCount[], b: readonly CardCount[]): number {
  const of = new Map(b.map((c) => [c.card_id, c.count]));
  let min = 0;
  let max = 0;
  for (const { card_id, count } of a) {
    const other = of.get(card_id) ?? 0;
    min += Math.min(count, other);
    max += Math.max(count, other);
    of.delete(card_id);
  }
  for (const count of of.values()) max += count;
  return max === 0 ? 0 : min / max;
}

/** A deck's identity as its canonical code has it: its nations, and each card's copies (in card order). */
export const deckIdentity = (d: Deck): string =>
  `${d.main}|${d.ally}|${[...d.cards]
    .sort((x, y) => (x.card_id < y.card_id ? -1 : x.card_id > y.card_id ? 1 : 0))
    .map((c) => `${c.card_id}${c.count}`)
    .join(',')}`;

/** The deck's cards fewest decks play (`played`: decks of its main nation playing each card; none: 0), ties by card id. */
export function rarestCards(deck: Deck, played: (cardId: string) => number, n = SIMILAR_CARDS): string[] {
  return deck.cards
    .map((c) => ({ id: c.card_id, decks: played(c.card_id) }))
    .sort((x, y) => x.decks - y.decks || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
    .slice(0, n)
    .map((c) => c.id);
}

export interface Candidate {
  id: string;
  views: number;
  deck: Deck;
}

/** The closest candidates to `deck` (`self`: its own id, when it is a stored deck), each with its likeness. */
export function closest<C extends Candidate>(deck: Deck, candidates: Iterable<C>, self?: string): { candidate: C; score: number }[] {
  const own = deckIdentity(deck);
  const byCode = new Map<string, C>();
  for (const c of candidates) {
    if (c.id === self || c.deck.main !== deck.main) continue;
    const code = deckIdentity(c.deck);
    if (code === own) continue;
    const held = byCode.get(code);
    if (!held || c.views > held.views || (c.views === held.views && c.id < held.id)) byCode.set(code, c);
  }
  return [...byCode.values()]
    .map((candidate) => ({ candidate, score: likeness(deck.cards, candidate.deck.cards) }))
    .sort((x, y) => y.score - x.score || y.candidate.views - x.candidate.views || (x.candidate.id < y.candidate.id ? -1 : 1))
    .slice(0, SIMILAR_MOST);
}
