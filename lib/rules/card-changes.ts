/**
 * What changed between two card lists (contract §9.2): the copies added and removed, and the copies
 * both hold — what a deck's history shows per version and what the diff of any two decks answers.
 * Pure; each list sorted by card id.
 */
import type { CardCount } from './deck-code.ts';

export interface CardChanges {
  /** Cards with more copies in `to`: the change in copies. */
  added: CardCount[];
  /** Cards with fewer copies in `to`: the change in copies. */
  removed: CardCount[];
  /** Cards both hold: the copies both hold (the smaller count). */
  kept: CardCount[];
}

const byId = (a: CardCount, b: CardCount) => (a.card_id < b.card_id ? -1 : a.card_id > b.card_id ? 1 : 0);

/** Copies by card id; a card listed twice counts its copies together. */
function copies(cards: readonly CardCount[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { card_id, count } of cards) counts.set(card_id, (counts.get(card_id) ?? 0) + count);
  return counts;
}

export function cardChanges(from: readonly CardCount[], to: readonly CardCount[]): CardChanges {
  const before = copies(from);
  const after = copies(to);
  const changes: CardChanges = { added: [], removed: [], kept: [] };
  for (const card_id of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(card_id) ?? 0;
    const now = after.get(card_id) ?? 0;
    if (now > was) changes.added.push({ card_id, count: now - was });
    if (was > now) changes.removed.push({ card_id, count: was - now });
    if (was > 0 && now > 0) changes.kept.push({ card_id, count: Math.min(was, now) });
  }
  changes.added.sort(byId);
  changes.removed.sort(byId);
  changes.kept.sort(byId);
  return changes;
}
