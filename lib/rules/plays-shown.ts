/**
 * What the library plays as the API shows it (contract §10.3), pure: a pool's cards by the share of its decks
 * that play them, the main/ally pairs and the most used tags by decks, and a tag's rank (the order the store
 * keeps the tags in, so that its first TOP_TAGS are the answer's). The figures themselves: plays.ts.
 */
import { type CardType, cardName } from './card.ts';
import type { Catalogue } from './catalogue.ts';
import type { FactionId } from './factions.ts';
import type { CardCount } from './plays.ts';

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

export interface CardFigure {
  card_id: string;
  name: string;
  decks: number;
  share: number;
  average_copies: number;
}

/**
 * A pool's cards (contract §10.3): each card some of its decks play, by decks (most first), then id; `type`
 * keeps that type's; names in the language. A card the catalogue no longer knows keeps its id as its name.
 */
export function cardFigures(
  pool: { decks: number; cards: ReadonlyMap<string, CardCount> },
  catalogue: Catalogue,
  language: string,
  type?: CardType,
): CardFigure[] {
  return [...pool.cards]
    .filter(([id, c]) => c.decks > 0 && (!type || catalogue.get(id)?.type === type))
    .map(([id, c]) => {
      const card = catalogue.get(id);
      return {
        card_id: id,
        name: card ? cardName(card, language) : id,
        decks: c.decks,
        share: pool.decks > 0 ? round(c.decks / pool.decks, 4) : 0,
        average_copies: round(c.copies / c.decks, 2),
      };
    })
    .sort((a, b) => b.decks - a.decks || (a.card_id < b.card_id ? -1 : a.card_id > b.card_id ? 1 : 0));
}

/** The most used tags the factions' figures show (contract §10.3): the top of the tags by decks, kept in order by the store. */
export const TOP_TAGS = 50;

/** Strings by their code points (as DynamoDB orders a sort key's UTF-8 bytes), not by UTF-16 code units. */
export function byCodePoints(a: string, b: string): number {
  const [x, y] = [[...a], [...b]];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = ((x[i] as string).codePointAt(0) as number) - ((y[i] as string).codePointAt(0) as number);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Most decks a tag's rank can order (well past any library's decks: the rank's fixed width). */
const RANK_CEILING = 10 ** 12;
/**
 * A tag's place among the tags, as a string a sort key orders ascending: most decks first, then the tag by its
 * code points — the order factionFigures gives, so that the store's first TOP_TAGS are the answer's.
 */
export const tagRank = (tag: string, decks: number): string => `${String(RANK_CEILING - decks).padStart(13, '0')}#${tag}`;

/** The pairs by decks (most first, then main, then ally) with their share of all public decks; the most used tags, TOP_TAGS at most. */
export function factionFigures(decks: number, pairs: ReadonlyMap<string, number>, tags: Iterable<readonly [string, number]>) {
  const ordered = [...pairs]
    .filter(([, n]) => n > 0)
    .map(([pair, n]) => {
      const [main_faction, ally_faction] = pair.split(':') as [FactionId, FactionId];
      return { main_faction, ally_faction, decks: n, share: decks > 0 ? round(n / decks, 4) : 0 };
    })
    .sort((a, b) => b.decks - a.decks || a.main_faction.localeCompare(b.main_faction) || a.ally_faction.localeCompare(b.ally_faction));
  const top = [...tags]
    .filter(([, n]) => n > 0)
    .sort(([ta, a], [tb, b]) => b - a || byCodePoints(ta, tb))
    .slice(0, TOP_TAGS)
    .map(([tag, n]) => ({ tag, decks: n }));
  return { pairs: ordered, tags: top };
}
