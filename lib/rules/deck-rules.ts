/**
 * The deck rules (contract §1): 39 cards; each known, deckable and of the deck's factions (exiles
 * counted as the faction they serve); at most 12 copies counted as the ally; copies by rarity.
 */
import type { Card, Catalogue, Rarity } from './catalogue.ts';
import { type CardCount, cardTotal, type Deck } from './deck-code.ts';
import { type Detail, detail } from './details.ts';
import { type CardFaction, factionById } from './factions.ts';

export const DECK_SIZE = 39;
export const ALLY_LIMIT = 12;
export const COPY_LIMIT: Readonly<Record<Rarity, number>> = { standard: 4, limited: 3, special: 2, elite: 1 };

/**
 * The faction a card counts as in a deck of `main`/`ally`: its own faction when that is one of them
 * (or neutral), else its exile faction when that is; undefined when the deck cannot hold it.
 */
export function countsAs(card: Card, main: string, ally: string): CardFaction | undefined {
  if (card.faction === main || card.faction === ally || card.faction === 'neutral') return card.faction;
  if (card.exile === main || card.exile === ally) return card.exile;
  return undefined;
}

/** Why a card may never stand in a deck, whatever its factions: unknown, headquarters or derived. */
export function undeckable(path: string, id: string, card: Card | undefined): Detail | undefined {
  if (!card) return detail(path, 'unknown_card', `${id} is not a card in the catalogue`);
  if (card.type === 'headquarters') {
    return detail(path, 'headquarters_card', `${id} (${card.name}) is a headquarters card, not one of a deck's cards`);
  }
  if (card.derived) return detail(path, 'derived_card', `${id} (${card.name}) is a derived card, spawned by other cards`);
  return undefined;
}

export interface DeckRuleOptions {
  /** Where a card's failure is reported; default `deck_code`. */
  pathForCard?: (cardId: string) => string;
  /** Where deck-wide failures (size, ally limit) are reported; default `deck_code`. */
  deckPath?: string;
}

export function checkDeck(deck: Deck, catalogue: Catalogue, options: DeckRuleOptions = {}): Detail[] {
  const deckPath = options.deckPath ?? 'deck_code';
  const pathFor = options.pathForCard ?? (() => deckPath);
  const mainName = factionById(deck.main)?.name;
  const allyName = factionById(deck.ally)?.name;
  const out: Detail[] = [];

  const total = cardTotal(deck.cards);
  if (total !== DECK_SIZE) out.push(detail(deckPath, 'deck_size', `a deck holds exactly ${DECK_SIZE} cards; this one holds ${total}`));

  let allyCopies = 0;
  for (const { card_id: id, count } of deck.cards) {
    const card = catalogue.get(id);
    const bad = undeckable(pathFor(id), id, card);
    if (bad || !card) {
      if (bad) out.push(bad);
      continue;
    }
    const as = countsAs(card, deck.main, deck.ally);
    if (as === undefined) {
      out.push(
        detail(
          pathFor(id),
          'wrong_faction',
          `${id} (${card.name}) belongs to ${factionById(card.faction)?.name}, which is neither ${mainName} nor ${allyName}`,
        ),
      );
    } else if (as === deck.ally) {
      allyCopies += count;
    }
    const limit = COPY_LIMIT[card.rarity];
    if (count > limit) {
      out.push(
        detail(
          pathFor(id),
          'copy_limit',
          `${id} (${card.name}) is ${card.rarity}: at most ${limit} ${limit === 1 ? 'copy' : 'copies'}, found ${count}`,
        ),
      );
    }
  }
  if (allyCopies > ALLY_LIMIT) {
    out.push(
      detail(deckPath, 'ally_limit', `at most ${ALLY_LIMIT} cards may count as the ally faction (${allyName}); found ${allyCopies}`),
    );
  }
  return out;
}

/** Copies of each card in a deck, for membership checks. */
export const copiesById = (cards: readonly CardCount[]): ReadonlyMap<string, number> => new Map(cards.map((c) => [c.card_id, c.count]));
