/**
 * A deck that leaves (deleted, made private) leaves every board, whatever order its leaving and a views window's
 * round fall in (contract §12.1, §9.1): the view-log worker's closing round reads the boards and the deck's count,
 * its first board write is held by the fault proxy in front of this file's store, the deck leaves — the
 * store-change worker's round, with its grants, finds it on no board and writes nothing — and the held write then
 * reaches the store. The round reads the count of each deck it put on a board once more: the deck is taken off
 * again. (CI saw it: a deck deleted while views raced its delete stayed on the trending boards, test/runtime/deletes.)
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '#catalogue/load.ts';
import { workerNamed } from '#routes/workers.ts';
import { BOARD_FACETS, BOARD_SORTS } from '#rules/boards.ts';
import { dayOf } from '#rules/week.ts';
import { buildBoards, type Offered, offeredOf } from '#store/boards.ts';
import { getItems } from '#store/bulk.ts';
import { createDeck, deleteDeck, replaceDeck } from '#store/decks.ts';
import { boardKey, boardOf } from '#store/items/board.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { addBatchesToCount } from '#store/view-log.ts';
import { handleStoreChanges } from '#workers/store-changes.ts';
import { boardRound } from '#workers/view-log.ts';
import { asRoute } from '../../infra/local/grants-guard.ts';
import { deckRecord, legalCode, storedDeck } from '../support/decks.ts';
import { guardedStoreForFile } from '../support/store.ts';

const store = guardedStoreForFile();
const worker = workerNamed;
const demo = demoCatalogue();
let made = 0;

const storeChanges = (records: DynamoDBRecord[]) => asRoute(worker('storeChanges'), () => handleStoreChanges({ Records: records }));

/** The boards that name a deck. */
async function boardsNaming(id: string): Promise<string[]> {
  const keys = BOARD_SORTS.flatMap((sort) => BOARD_FACETS.map((facet) => ({ sort, facet })));
  const boards = (await getItems(keys.map((k) => boardKey(k.sort, k.facet)))).map(boardOf);
  return keys.filter((_, i) => boards[i]?.members.some((m) => m.id === id)).map((k) => `${k.sort}#${k.facet}`);
}

/** A public deck with 5 views today, marked on its count (as the store-change worker marks it): what a window offers. */
async function viewedDeck(today: number): Promise<{ deck: StoredDeck; offers: Map<string, Offered> }> {
  const deck = storedDeck({ visibility: 'public', deck_code: legalCode(demo, 'soviet', 'usa', 12, ++made) });
  expect(await createDeck(deck)).toBe('ok');
  await storeChanges([deckRecord(undefined, deck)]);
  const { count } = await addBatchesToCount(
    deck.share_slug,
    [{ id: `b${made}`, ordinal: 1, views: { [deck.share_slug]: { [today]: 5 } } }],
    today,
  );
  expect(count.listed?.deck).toBe(deck.id);
  return {
    deck,
    offers: new Map([
      [deck.share_slug, offeredOf(deck.share_slug, { ...count, listed: count.listed as NonNullable<typeof count.listed> }, today)],
    ]),
  };
}

/** The window's boards round, its first board write held until the deck has left; answers the boards naming the deck. */
async function raced(deck: StoredDeck, offers: Map<string, Offered>, today: number, leave: () => Promise<void>): Promise<string[]> {
  store.proxy.set('PutItem', { kind: 'hold', match: 'BOARD#', times: 1 });
  const round = asRoute(worker('viewLog'), () => boardRound(offers, today));
  const heldBefore = store.proxy.seen.get('hold') ?? 0;
  while ((store.proxy.seen.get('hold') ?? 0) === heldBefore) await new Promise((ok) => setTimeout(ok, 20));
  await leave();
  // The leaving round wrote no board: the deck was on none when it read them.
  expect(await boardsNaming(deck.id)).toEqual([]);
  store.proxy.release();
  await round;
  store.proxy.set('PutItem');
  return boardsNaming(deck.id);
}

describe('a deck that leaves leaves every board, whatever order it and a views window fall in', () => {
  it('deleted while a window puts it on the boards: taken off again', async () => {
    const today = dayOf(Date.now());
    await asRoute(worker('viewLog'), () => buildBoards({ today }));
    const { deck, offers } = await viewedDeck(today);
    const left = await raced(deck, offers, today, async () => {
      expect(await deleteDeck(deck)).toBe(true);
      await storeChanges([deckRecord(deck, undefined)]);
    });
    expect(left).toEqual([]);
    // A window with no race puts a viewed public deck on its boards (the race is what the test is about).
    const other = await viewedDeck(today);
    await asRoute(worker('viewLog'), () => boardRound(other.offers, today));
    expect((await boardsNaming(other.deck.id)).sort()).toEqual(
      BOARD_SORTS.flatMap((s) => ['all', 'main:soviet', 'ally:usa'].map((f) => `${s}#${f}`)).sort(),
    );
  });

  it('made private while a window puts it on the boards: taken off again', async () => {
    const today = dayOf(Date.now());
    const { deck, offers } = await viewedDeck(today);
    const left = await raced(deck, offers, today, async () => {
      const now = { ...deck, visibility: 'private' as const, version: deck.version + 1 };
      expect(await replaceDeck(now, deck)).toBe(true);
      await storeChanges([deckRecord(deck, now)]);
    });
    expect(left).toEqual([]);
  });
});
