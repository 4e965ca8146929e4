/**
 * A leaderboard (decks table; lib/rules/boards.ts says what it holds): one facet's and sort's top decks by
 * their exact counts, at most BOARD_SIZE whatever the library's size — about 70 bytes a deck, ≤ 8 KB.
 *   pk BOARD#<sort>#<facet>  sk BOARD  { rev: its writes (each write conditional on the one read),
 *                                        floor, m: [[deck_id, share_slug, count, the count's revision], …]
 *                                        highest first }
 * Written by lib/store/boards.ts only; a board that does not exist is not built yet (search then reads the
 * index alone).
 */
import type { Board, BoardSort, Member } from '#rules/boards.ts';
import { itemKind } from './kind.ts';

export const BOARD = itemKind('BOARD#');
export const boardKey = (sort: BoardSort, facet: string) => ({ pk: BOARD.pk(`${sort}#${facet}`), sk: 'BOARD' });

/** A board as stored, and its revision. */
export interface StoredBoard extends Board {
  rev: number;
}

export function boardOf(item: Record<string, unknown> | undefined): StoredBoard | undefined {
  if (!item) return undefined;
  const members = ((item.m ?? []) as [string, string, number, number][]).map(
    ([id, slug, n, rev]): Member => ({ id: String(id), slug: String(slug), n: Number(n), rev: Number(rev) }),
  );
  return { members, floor: Number(item.floor ?? 0), rev: Number(item.rev ?? 0) };
}

export const boardItem = (sort: BoardSort, facet: string, board: Board, rev: number): Record<string, unknown> => ({
  ...boardKey(sort, facet),
  rev,
  floor: board.floor,
  m: board.members.map((m) => [m.id, m.slug, m.n, m.rev]),
});
