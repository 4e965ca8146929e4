/** Test helpers: legal decks built from any catalogue, stored decks to seed a store with, and a tiny hand-made catalogue. */
import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { type Card, type Catalogue, makeCatalogue } from '#rules/catalogue.ts';
import { type CardCount, type Deck, encodeDeckCode } from '#rules/deck-code.ts';
import { defaultArchive } from '#rules/deck-model.ts';
import { ALLY_LIMIT, COPY_LIMIT, DECK_SIZE } from '#rules/deck-rules.ts';
import type { FactionId } from '#rules/factions.ts';
import { deckItem, deckKey, type StoredDeck } from '#store/items/deck.ts';

/** A faction's cards that can stand in a deck (not derived, not a headquarters), in catalogue order. */
export const deckableCards = (cat: Catalogue, faction: string): Card[] =>
  cat.cards.filter((c) => c.faction === faction && !c.derived && c.type !== 'headquarters');

/**
 * A legal deck for main/ally: `allyCopies` copies of ally cards, the rest main cards, each card at
 * its rarity's copy limit at most. `offset` rotates the choice so different calls give different decks.
 */
export function legalDeck(cat: Catalogue, main: FactionId, ally: FactionId, allyCopies = ALLY_LIMIT, offset = 0): CardCount[] {
  const pick = (faction: FactionId, copies: number): CardCount[] => {
    const pool = deckableCards(cat, faction);
    const out: CardCount[] = [];
    let left = copies;
    for (let i = 0; left > 0 && i < pool.length; i++) {
      const card = pool[(i + offset) % pool.length] as Card;
      const n = Math.min(COPY_LIMIT[card.rarity], left);
      out.push({ card_id: card.card_id, count: n });
      left -= n;
    }
    if (left > 0) throw new Error(`not enough ${faction} cards for ${copies} copies`);
    return out;
  };
  return [...pick(main, DECK_SIZE - allyCopies), ...pick(ally, allyCopies)];
}

/**
 * A near-copy of a deck (decks like this one, contract §12.3): one copy of its first card traded for one copy of a
 * deckable card of its main nation it does not hold — Σ min / Σ max of the two is 38/40.
 */
export function nearCopy(cat: Catalogue, deck: Deck): Deck {
  const outside = deckableCards(cat, deck.main).find((c) => !deck.cards.some((b) => b.card_id === c.card_id));
  if (!outside) throw new Error(`every ${deck.main} card is in the deck`);
  const [first, ...rest] = deck.cards;
  return {
    ...deck,
    cards: [...(first && first.count > 1 ? [{ ...first, count: first.count - 1 }] : []), ...rest, { card_id: outside.card_id, count: 1 }],
  };
}

/** A legal deck of main/ally with no special or elite card (pauper: lib/rules/formats.ts), where the catalogue has enough: the first of the rotations. */
export function pauperDeck(cat: Catalogue, main: FactionId, ally: FactionId): Deck | undefined {
  const pauper = (id: string) => !['special', 'elite'].includes(cat.get(id)?.rarity ?? 'special');
  for (let offset = 0; offset < 40; offset++) {
    const cards = legalDeck(cat, main, ally, ALLY_LIMIT, offset);
    if (cards.every((c) => pauper(c.card_id))) return { main, ally, cards };
  }
  return undefined;
}

export const legalCode = (cat: Catalogue, main: FactionId, ally: FactionId, allyCopies?: number, offset?: number): string =>
  encodeDeckCode({ main, ally, cards: legalDeck(cat, main, ally, allyCopies, offset) });

const card = (card_id: string, faction: Card['faction'], rarity: Card['rarity'], extra: Partial<Card> = {}): Card => ({
  card_id,
  name: `Card ${card_id}`,
  faction,
  type: 'infantry',
  rarity,
  kredits: 1,
  set: 'Test',
  derived: false,
  exile: null,
  ...extra,
});

/**
 * A tiny catalogue for rule tests. Soviet: s1..s9 standard (4 copies each = 36), sL limited, sS special,
 * sE elite. USA: u1..u4 standard. Germany: g1. Neutral: n1. Derived: sd. HQ: sh. Exile: p1 (Poland,
 * exile USA), p2 (Poland, exile Germany).
 */
export const tiny: Catalogue = makeCatalogue([
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => card(`s${i}`, 'soviet', 'standard')),
  card('sL', 'soviet', 'limited'),
  card('sS', 'soviet', 'special'),
  card('sE', 'soviet', 'elite'),
  ...[1, 2, 3, 4].map((i) => card(`u${i}`, 'usa', 'standard')),
  card('g1', 'germany', 'standard'),
  card('n1', 'neutral', 'standard'),
  card('sd', 'soviet', 'standard', { derived: true }),
  card('sh', 'soviet', 'standard', { type: 'headquarters' }),
  card('p1', 'poland', 'standard', { exile: 'usa' }),
  card('p2', 'poland', 'standard', { exile: 'germany' }),
  card('soviet_long_token', 'soviet', 'standard', { derived: true }),
]);

/** Soviet/USA, 39 cards: s1..s6 ×4 (24), sL ×3, u1..u3 ×4 (12 ally). */
export const TINY_CODE = '%%45|;;sL;s1s2s3s4s5s6u1u2u3';
/** The same deck's cards, for tests that edit it. */
export const tinyCards = (): CardCount[] => [
  ...['s1', 's2', 's3', 's4', 's5', 's6'].map((card_id) => ({ card_id, count: 4 })),
  { card_id: 'sL', count: 3 },
  ...['u1', 'u2', 'u3'].map((card_id) => ({ card_id, count: 4 })),
];

/**
 * A deck as the store keeps it, to seed a store with directly (no request): a public Soviet Union /
 * United States deck of version 1, no views or likes, made now, of a new owner and slug — each field
 * `fields` gives instead. Its code is the caller's (a legal one of the catalogue it reads).
 */
export function storedDeck(fields: Partial<StoredDeck> & Pick<StoredDeck, 'deck_code'>): StoredDeck {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    user_id: randomUUID(),
    share_slug: `s${randomUUID().replaceAll('-', '').slice(0, 11)}`,
    author_name: 'Author',
    name: 'Soviet Union / United States',
    main_faction: 'soviet',
    ally_faction: 'usa',
    tags: [],
    visibility: 'public',
    sort_order: 0,
    guide: { system: 'Tempo', description: '', core_cards: [], reserve_recommendations: [] },
    archive: defaultArchive(),
    display: { featured_card_id: null, card_back_id: null },
    views: 0,
    likes: 0,
    created_at: now,
    updated_at: now,
    version: 1,
    ...fields,
  };
}

let streamSequence = 0;
/** A deck item's change as its stream record carries it (INSERT, MODIFY or REMOVE), each with the next sequence number. */
export function deckRecord(before: StoredDeck | undefined, after: StoredDeck | undefined): DynamoDBRecord {
  const deck = (after ?? before) as StoredDeck;
  const image = (d: StoredDeck | undefined) => (d ? (marshall(deckItem(d), { removeUndefinedValues: true }) as never) : undefined);
  return {
    eventName: !before ? 'INSERT' : !after ? 'REMOVE' : 'MODIFY',
    dynamodb: {
      Keys: marshall(deckKey(deck.user_id, deck.id)) as never,
      OldImage: image(before),
      NewImage: image(after),
      SequenceNumber: String(++streamSequence).padStart(21, '0'),
    },
  };
}
