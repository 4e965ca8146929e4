/**
 * The leaderboards' rule (lib/rules/boards.ts): whatever counts do — views rising, weeks falling, decks leaving
 * their facet — and however the offers fall into rounds, the board's exact part is the facet's true order's head
 * (exact counts, ties by id), no deck off the board has more than the floor, and a board never holds more than
 * BOARD_SIZE decks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOARD_SIZE, type Board, byCount, EMPTY_BOARD, exactPart, type Member, offer } from '#rules/boards.ts';

type Event = { deck: number; kind: 'add' | 'fall' | 'leave'; by: number };

/** Runs events on a model (each deck's true count, or gone) and a board, offering each round's moved decks. */
function run(decks: number, rounds: Event[][]) {
  const counts = new Map<string, number>();
  const revs = new Map<string, number>();
  let board: Board = EMPTY_BOARD;
  const id = (i: number) => `d${String(i).padStart(4, '0')}`;
  for (const round of rounds) {
    const moved = new Set<string>();
    const left = new Set<string>();
    for (const e of round) {
      const d = id(e.deck % decks);
      if (e.kind === 'leave') {
        counts.delete(d);
        left.add(d);
        moved.delete(d);
        continue;
      }
      const was = counts.get(d) ?? 0;
      counts.set(d, e.kind === 'add' ? was + e.by : Math.max(0, was - e.by));
      revs.set(d, (revs.get(d) ?? 0) + 1);
      moved.add(d);
      left.delete(d);
    }
    const offers: Member[] = [...moved].map((d) => ({ id: d, slug: `s-${d}`, n: counts.get(d) ?? 0, rev: revs.get(d) ?? 0 }));
    board = offer(board, offers, left) ?? board;
  }
  return { counts, board };
}

/** Rounds of events: small steps (ties are common) over up to 260 decks, enough for boards past BOARD_SIZE. */
const rounds = fc.array(
  fc.array(
    fc.record({
      deck: fc.nat({ max: 259 }),
      kind: fc.constantFrom<'add' | 'fall' | 'leave'>('add', 'add', 'add', 'add', 'fall', 'leave'),
      by: fc.integer({ min: 1, max: 4 }),
    }),
    { minLength: 20, maxLength: 150 },
  ),
  { minLength: 1, maxLength: 10 },
);

describe('leaderboards', () => {
  it('the exact part is the head of the true order; no deck off the board has more than the floor; at most BOARD_SIZE decks', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 260 }), rounds, (decks, events) => {
        const { counts, board } = run(decks, events);
        expect(board.members.length).toBeLessThanOrEqual(BOARD_SIZE);
        const truth = [...counts]
          .filter(([, n]) => n > 0)
          .map(([id, n]) => ({ id, n }))
          .sort(byCount);
        const exact = exactPart(board);
        expect(exact.map((m) => [m.id, m.n])).toEqual(truth.slice(0, exact.length).map((t) => [t.id, t.n]));
        const on = new Set(board.members.map((m) => m.id));
        for (const [id, n] of counts) if (!on.has(id)) expect([id, n <= board.floor]).toEqual([id, true]);
        // Every member holds its deck's count now (no deck left its facet and stayed).
        for (const m of board.members) expect([m.id, m.n]).toEqual([m.id, counts.get(m.id)]);
      }),
      { numRuns: 300 },
    );
  });

  it('the exact part is not empty while the library is small, and every deck above the floor is in it', () => {
    // 150 decks read 1 … 150 times: the board keeps the top 100, its floor is the 101st's count (50).
    const offers = Array.from(
      { length: 150 },
      (_, i): Member => ({ id: `d${String(i).padStart(3, '0')}`, slug: `s${i}`, n: i + 1, rev: 1 }),
    );
    const board = offer(EMPTY_BOARD, offers) as Board;
    expect(board.members).toHaveLength(BOARD_SIZE);
    expect(board.floor).toBe(50);
    expect(exactPart(board).map((m) => m.n)).toEqual(Array.from({ length: 100 }, (_, i) => 150 - i));
    // An offer older than what the board holds of its deck changes nothing; one newer does.
    expect(offer(board, [{ id: 'd149', slug: 's149', n: 1, rev: 0 }])).toBeUndefined();
    // The first deck's week falls to 1: still on the board (it has room), below the floor, out of the exact part.
    const fell = offer(board, [{ id: 'd149', slug: 's149', n: 1, rev: 2 }]) as Board;
    expect(fell.members.at(-1)).toEqual({ id: 'd149', slug: 's149', n: 1, rev: 2 });
    expect(exactPart(fell).map((m) => m.id)).not.toContain('d149');
    expect(exactPart(fell)).toHaveLength(99);
    // And to 0: off the board.
    expect((offer(fell, [{ id: 'd149', slug: 's149', n: 0, rev: 3 }]) as Board).members.some((m) => m.id === 'd149')).toBe(false);
    // Ties by id: two decks of one count, the lower id first.
    const tied = offer(EMPTY_BOARD, [
      { id: 'b', slug: 'b', n: 3, rev: 1 },
      { id: 'a', slug: 'a', n: 3, rev: 1 },
    ]) as Board;
    expect(exactPart(tied).map((m) => m.id)).toEqual(['a', 'b']);
  });
});
