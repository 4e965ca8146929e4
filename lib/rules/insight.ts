/**
 * Deck insight (contract §8.6), pure: the stats of a deck's 39 cards, its legality against the
 * catalogue the service runs with now (and for ranked play, §11.5), and the exact OTK probabilities of its chart items.
 */
import { CARD_TYPES, RARITIES } from './card.ts';
import type { Catalogue } from './catalogue.ts';
import type { CardCount, Deck } from './deck-code.ts';
import { checkDeck, countsAs, DECK_SIZE } from './deck-rules.ts';
import type { Detail } from './details.ts';
import { FORMATS, type Format, type FormatLegality, formatIssues } from './formats.ts';

export { FORMATS, type Format } from './formats.ts';

export type DeckType = Exclude<(typeof CARD_TYPES)[number], 'headquarters'>;
export const DECK_TYPES = CARD_TYPES.filter((t): t is DeckType => t !== 'headquarters');

export interface Stats {
  by_kredits: Record<string, number>;
  by_type: Record<DeckType, number>;
  by_rarity: Record<(typeof RARITIES)[number], number>;
  ally_cards: number;
  neutral_cards: number;
}

/**
 * Counts of the deck's cards (copies counted): a key per kredit cost present, every type and rarity
 * key; `ally_cards` as the ally limit counts them, `neutral_cards` the neutral ones. A card the
 * catalogue does not know (the catalogue changed) is in no bucket: legality says why.
 */
export function deckStats(deck: Deck, catalogue: Catalogue): Stats {
  const byKredits = new Map<number, number>();
  const byType = Object.fromEntries(DECK_TYPES.map((t) => [t, 0])) as Record<DeckType, number>;
  const byRarity = Object.fromEntries(RARITIES.map((r) => [r, 0])) as Stats['by_rarity'];
  let ally = 0;
  let neutral = 0;
  for (const { card_id, count } of deck.cards) {
    const card = catalogue.get(card_id);
    if (!card) continue;
    byKredits.set(card.kredits, (byKredits.get(card.kredits) ?? 0) + count);
    if (card.type !== 'headquarters') byType[card.type] += count;
    byRarity[card.rarity] += count;
    if (card.faction === 'neutral') neutral += count;
    else if (countsAs(card, deck.main, deck.ally) === deck.ally) ally += count;
  }
  const by_kredits = Object.fromEntries([...byKredits].sort(([a], [b]) => a - b).map(([k, n]) => [String(k), n]));
  return { by_kredits, by_type: byType, by_rarity: byRarity, ally_cards: ally, neutral_cards: neutral };
}

export interface Legality {
  valid: boolean;
  errors: Detail[];
  /** Ranked play (contract §11.5): a legal deck holding no card of the Reserve pool; those it holds, by id in the code's order. */
  ranked: { legal: boolean; reserved_cards: string[] };
  /** Each format: a legal deck none of whose cards break the format's rule (those that do, in the code's order). */
  formats: Record<Format, FormatLegality>;
}

/** The deck rules of contract §1 against the catalogue the service runs with now; whether ranked play takes the deck; each format. */
export function legality(deck: Deck, catalogue: Catalogue): Legality {
  const errors = checkDeck(deck, catalogue);
  const valid = errors.length === 0;
  const reserved = deck.cards.filter((c) => catalogue.get(c.card_id)?.reserved === true).map((c) => c.card_id);
  const formats = Object.fromEntries(
    FORMATS.map((format) => {
      const issues = formatIssues(deck, format, catalogue);
      return [format, { legal: valid && issues.length === 0, issues }];
    }),
  ) as Record<Format, FormatLegality>;
  return { valid, errors, ranked: { legal: valid && reserved.length === 0, reserved_cards: reserved }, formats };
}

// --- OTK probabilities ------------------------------------------------------------------------------------------
const factorials: bigint[] = [1n];
for (let i = 1; i <= DECK_SIZE; i++) factorials.push((factorials[i - 1] as bigint) * BigInt(i));
/** C(n, k), exactly. */
export const choose = (n: number, k: number): bigint =>
  k < 0 || k > n ? 0n : (factorials[n] as bigint) / ((factorials[k] as bigint) * (factorials[n - k] as bigint));

/**
 * P(at least `required` of the pool's `pool` copies are among the first n cards of a uniformly
 * shuffled deck of `size`), for n = 1 … size: exact (hypergeometric, big integers), then rounded.
 */
export function drawProbabilities(pool: number, required: number, size = DECK_SIZE): number[] {
  return Array.from({ length: size }, (_, i) => {
    const n = i + 1;
    let miss = 0n;
    for (let k = 0; k < required; k++) miss += choose(pool, k) * choose(size - pool, n - k);
    const all = choose(size, n);
    // Exact integers below 2^53 (C(39, 19) ≈ 6.9·10^10): their quotient is the correctly rounded double.
    return Number(all - miss) / Number(all);
  });
}

export interface OtkItem {
  card_ids: string[];
  required: number;
  label?: string;
}

export function otkChart(items: readonly OtkItem[], cards: readonly CardCount[]) {
  const copies = new Map(cards.map((c) => [c.card_id, c.count]));
  return items.map((item) => {
    const pool = [...new Set(item.card_ids)].reduce((n, id) => n + (copies.get(id) ?? 0), 0);
    return {
      card_ids: item.card_ids,
      required: item.required,
      label: item.label ?? null,
      pool_copies: pool,
      by_draws: drawProbabilities(pool, item.required),
    };
  });
}
