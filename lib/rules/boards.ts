/**
 * Leaderboards (contract §12.1): the orders people browse — `sort=views` and `sort=trending`, unfiltered or by
 * `main_faction` or `ally_faction` alone — exact at rest whatever the library's size. Pure: what a board holds,
 * how an offer changes it, and which part of it is exact (lib/store/boards.ts keeps them; the view-log worker,
 * the store-change worker and the daily opener offer decks; search reads them).
 *
 * A board is one facet's and sort's top decks by their exact counts (views, or views of the week), at most
 * BOARD_SIZE, and its `floor`: a bound on the count of any deck of the facet not on it. The floor rises when a
 * deck is left off (pushed out, or offered to a full board below its last) to that deck's count; a deck's
 * count moves only by an offer (a view's window, a day opened, a deck made public or moved), so a deck off the
 * board never has more than the floor — its views only rise by a window that offers it, and its week only falls.
 * The decks on the board above the floor are therefore the facet's first decks in exact order (ties by id);
 * those at or below it are listed with the rest, from the index, by their folded counts.
 */

import { FACTIONS, type FactionId } from './factions.ts';
import { facetOf } from './search-filters.ts';

/** Decks a board holds at most: the exact part of an order is at most this long (a page of 20 five times). */
export const BOARD_SIZE = 100;
/** The sorts with boards. */
export const BOARD_SORTS = ['views', 'trending'] as const;
export type BoardSort = (typeof BOARD_SORTS)[number];

/** A deck on a board: its id and share slug, its exact count, and that count's revision (a later offer of a deck wins). */
export interface Member {
  id: string;
  slug: string;
  n: number;
  rev: number;
}

export interface Board {
  /** By count, highest first, ties by id. */
  members: Member[];
  /** No deck of the facet off the board has more. */
  floor: number;
}

export const EMPTY_BOARD: Board = { members: [], floor: 0 };

/** Every facet with boards: all public decks, each main faction's, each ally's. */
export const BOARD_FACETS: readonly string[] = [
  'all',
  ...FACTIONS.filter((f) => f.main).map((f) => facetOf('main_faction', f.id)),
  ...FACTIONS.map((f) => facetOf('ally_faction', f.id)),
];

/** The facets a public deck's boards are of (search's partitions: lib/store/items/search-entry.ts facetsOf). */
export const boardFacets = (main: FactionId | string, ally: FactionId | string): string[] => [
  'all',
  facetOf('main_faction', main),
  facetOf('ally_faction', ally),
];

/** The order of a board: highest count first, ties by id. */
export const byCount = (a: Pick<Member, 'id' | 'n'>, b: Pick<Member, 'id' | 'n'>): number =>
  b.n - a.n || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * A board after offers (decks of its facet with their exact counts now) and leavings (decks no longer of its
 * facet: made private, deleted, moved to another faction); undefined when nothing changes. An offer older than
 * what the board holds of its deck (a lower revision) is ignored; a deck whose count is 0 leaves (the index
 * orders it among the decks of 0, by id).
 */
export function offer(board: Board, offers: readonly Member[], leaving: Iterable<string> = []): Board | undefined {
  const held = new Map(board.members.map((m) => [m.id, m]));
  for (const id of leaving) held.delete(id);
  let floor = board.floor;
  for (const o of offers) {
    const was = held.get(o.id);
    if (was && was.rev > o.rev) continue;
    if (o.n > 0) held.set(o.id, o);
    else held.delete(o.id);
  }
  const sorted = [...held.values()].sort(byCount);
  const members = sorted.slice(0, BOARD_SIZE);
  for (const left of sorted.slice(BOARD_SIZE)) floor = Math.max(floor, left.n);
  const same =
    floor === board.floor &&
    members.length === board.members.length &&
    members.every((m, i) => {
      const b = board.members[i] as Member;
      return m.id === b.id && m.slug === b.slug && m.n === b.n && m.rev === b.rev;
    });
  return same ? undefined : { members, floor };
}

/** The part of a board that is exact: its decks above the floor, in order. */
export const exactPart = (board: Board): Member[] => board.members.filter((m) => m.n > board.floor);
