/**
 * The leaderboards (items/board.ts; what they hold: lib/rules/boards.ts), kept by the writers of what moves
 * them — a views window (the view-log worker: the decks whose counts it wrote), a deck made public, private,
 * deleted or moved to other factions (the store-change worker), a new day (the daily opener: the week falls) —
 * each write of a board conditional on the revision read, at most once a round and only when it changes.
 * A board that does not exist is not built: offers pass it by, and search reads the index alone, until
 * `buildBoards` (the view-log worker's first round in a library of up to BUILD_IN_WORKER public decks, or
 * `deckctl boards build` in a larger one) builds every board from every public deck's exact counts.
 */
import { GetCommand, PutCommand, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { BOARD_FACETS, BOARD_SORTS, type Board, type BoardSort, boardFacets, EMPTY_BOARD, type Member, offer } from '#rules/boards.ts';
import { dayOf, weekViews } from '#rules/week.ts';
import { atMost } from './at-most.ts';
import { getItems } from './bulk.ts';
import { documentClient, transact, unlessConditionFailed } from './client.ts';
import { boardItem, boardKey, boardOf, type StoredBoard } from './items/board.ts';
import { ALL_FACET, entryKey, SORT_INDEX } from './items/search-entry.ts';
import { countOf, LISTED_ATTRS, type Listed, type StoredCount, viewCountKey } from './items/view-count.ts';
import { DECKS, tableName } from './tables.ts';

const table = () => tableName(DECKS);
/** Public decks a library may hold for the view-log worker to build its boards itself (a few seconds' reads). */
export const BUILD_IN_WORKER = 2_000;
const TRIES = 5;

/** A public deck's counts, as a writer offers them. */
export interface Offered extends Listed {
  slug: string;
  views: number;
  week: number;
  rev: number;
}

/** What a count offers: its views and its views of the week ending `today` (or the later day it knows). */
export const offeredOf = (slug: string, count: StoredCount & { listed: Listed }, today: number): Offered => ({
  ...count.listed,
  slug,
  views: count.views,
  week: weekViews(count.slots, Math.max(today, count.day ?? today)),
  rev: count.rev,
});

const memberOf = (o: Offered, sort: BoardSort): Member => ({
  id: o.deck,
  slug: o.slug,
  n: sort === 'views' ? o.views : o.week,
  rev: o.rev,
});
const keyOf = (sort: BoardSort, facet: string) => `${sort}#${facet}`;

/** A board read for a search (eventually consistent: half a read unit a 4 KB), or undefined when not built. */
export async function readBoard(sort: BoardSort, facet: string): Promise<StoredBoard | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: boardKey(sort, facet) }));
  return boardOf(Item);
}

const valueIn = (o: Offered, sort: BoardSort) => (sort === 'views' ? o.views : o.week);

/**
 * Offers decks' counts to the boards of their facets (of `sorts`), and takes decks off the boards of facets they
 * left (a deck made private or deleted leaves all of its own). A round: the boards concerned read consistently;
 * then the count of each offered deck that could change one (on it, or above its floor) read again, consistently —
 * a deck deleted, made private or moved since its count was first read is taken off instead, so that an offer
 * racing a delete never puts a gone deck back; then each board that changes written on condition of the revision
 * read; then the count of each deck put on a board read once more (a leaving that read the board before the write
 * found nothing to take off). The boards that moved meanwhile, and those of a deck gone since, go round again. Answers the boards written, and whether the boards are
 * built (the `all` facet's views board, which buildBoards writes last, was among those read; false when it was not
 * asked for).
 */
export async function offerToBoards(
  offers: readonly Offered[],
  leaving: readonly { deck: string; facets: readonly string[] }[] = [],
  { today = dayOf(Date.now()), sorts = BOARD_SORTS }: { today?: number; sorts?: readonly BoardSort[] } = {},
): Promise<{ written: number; built: boolean }> {
  const wanted = new Map<string, { sort: BoardSort; facet: string }>();
  for (const sort of sorts)
    for (const facet of [...offers.flatMap((o) => boardFacets(o.main, o.ally)), ...leaving.flatMap((l) => l.facets)])
      wanted.set(keyOf(sort, facet), { sort, facet });
  let keys = [...wanted.values()];
  let written = 0;
  let built = false;
  for (let round = 0; keys.length > 0; round++) {
    if (round === TRIES) throw new Error(`the boards ${keys.map((k) => keyOf(k.sort, k.facet)).join(', ')} kept moving`);
    const held = (await getItems(keys.map((k) => boardKey(k.sort, k.facet)))).map(boardOf);
    built ||= keys.some((k, i) => k.sort === 'views' && k.facet === ALL_FACET && held[i] !== undefined);
    const could = (o: Offered) =>
      keys.some(({ sort, facet }, i) => {
        const board = held[i];
        return (
          board !== undefined &&
          boardFacets(o.main, o.ally).includes(facet) &&
          (board.members.some((m) => m.id === o.deck) || valueIn(o, sort) > board.floor)
        );
      });
    const relevant = offers.filter(could);
    const counts = await getItems(relevant.map((o) => viewCountKey(o.slug)));
    const now: Offered[] = [];
    const gone = [...leaving];
    relevant.forEach((o, i) => {
      const count = countOf(counts[i]);
      if (count.listed?.deck !== o.deck) {
        gone.push({ deck: o.deck, facets: boardFacets(o.main, o.ally) });
        return;
      }
      const fresh = offeredOf(o.slug, { ...count, listed: count.listed }, today);
      now.push(fresh);
      const kept = boardFacets(fresh.main, fresh.ally);
      gone.push({ deck: o.deck, facets: boardFacets(o.main, o.ally).filter((f) => !kept.includes(f)) });
    });
    const moved: typeof keys = [];
    /** Decks this round put on a board they were not on, and the boards. */
    const entered = new Map<string, { slug: string; boards: { sort: BoardSort; facet: string }[] }>();
    for (const [i, { sort, facet }] of keys.entries()) {
      const board = held[i];
      if (!board) continue;
      const next = offer(
        board,
        now.filter((o) => boardFacets(o.main, o.ally).includes(facet)).map((o) => memberOf(o, sort)),
        gone.filter((l) => l.facets.includes(facet)).map((l) => l.deck),
      );
      if (!next) continue;
      const done = await unlessConditionFailed(
        documentClient().send(
          new PutCommand({
            TableName: table(),
            Item: boardItem(sort, facet, next, board.rev + 1),
            ConditionExpression: '#rev = :rev',
            ExpressionAttributeNames: { '#rev': 'rev' },
            ExpressionAttributeValues: { ':rev': board.rev },
          }),
        ),
      );
      if (!done) {
        moved.push({ sort, facet });
        continue;
      }
      written++;
      for (const m of next.members)
        if (!board.members.some((b) => b.id === m.id)) {
          const deck = entered.get(m.id) ?? { slug: m.slug, boards: [] };
          deck.boards.push({ sort, facet });
          entered.set(m.id, deck);
        }
    }
    // A deck's leaving (deleted, made private, moved) may have read a board before this round's write put it on
    // and found nothing to take off: each deck put on a board has its count read once more, after the write, and
    // one that left sends its boards round again (it is then taken off). Its leaving took its count first, so a
    // count still there means the leaving reads the boards after this write, and takes the deck off itself.
    const newcomers = [...entered.entries()];
    const after = await getItems(newcomers.map(([, d]) => viewCountKey(d.slug)));
    newcomers.forEach(([id, d], i) => {
      const listed = countOf(after[i]).listed;
      for (const b of d.boards)
        if (
          (listed?.deck !== id || !boardFacets(listed.main, listed.ally).includes(b.facet)) &&
          !moved.some((k) => keyOf(k.sort, k.facet) === keyOf(b.sort, b.facet))
        )
          moved.push(b);
    });
    keys = moved;
  }
  return { written, built };
}

/** Whether the boards are built (the `all` facet's views board stands for them all: buildBoards writes it last). */
export async function boardsBuilt(): Promise<boolean> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: boardKey('views', ALL_FACET), ConsistentRead: true }),
  );
  return Item !== undefined;
}

/**
 * Builds every board from every public deck: each deck's count is marked with its deck's id and factions (created
 * where the deck has no view yet: the first view then offers it) and its exact counts taken into the boards, a page
 * of decks at a time (the boards never hold more than theirs). With `cap`, counts the public decks first and gives
 * up (answers false, writing nothing) past that many. Answers whether it built them.
 */
export async function buildBoards({
  cap,
  today = dayOf(Date.now()),
}: {
  cap?: number;
  today?: number;
} = {}): Promise<{ built: boolean; decks: number }> {
  const everyPublic = {
    TableName: table(),
    IndexName: SORT_INDEX.date.index,
    KeyConditionExpression: 'facet = :all',
    ExpressionAttributeValues: { ':all': ALL_FACET },
  };
  if (cap !== undefined) {
    // Counted first (keys only, at most cap + 1): a library too large writes nothing.
    let counted = 0;
    for await (const page of paginateQuery(
      { client: documentClient(), pageSize: cap + 1 },
      { ...everyPublic, Select: 'COUNT', Limit: cap + 1 },
    )) {
      counted += page.Count ?? 0;
      if (counted > cap) return { built: false, decks: counted };
    }
  }
  const boards = new Map<string, Board>();
  let decks = 0;
  for await (const page of paginateQuery(
    { client: documentClient(), pageSize: 100 },
    { ...everyPublic, ProjectionExpression: 'deck_id, slug, main_faction, ally_faction' },
  )) {
    const listed = (page.Items ?? []).map((e) => ({
      slug: String(e.slug),
      listed: { deck: String(e.deck_id), main: String(e.main_faction), ally: String(e.ally_faction) },
    }));
    decks += listed.length;
    // Each count as it stands, marked where it is not yet (or marked with other factions) — while its deck is
    // still public: the index read may be a moment behind a deck made private or deleted.
    const held = await getItems(listed.map(({ slug }) => viewCountKey(slug)));
    const offers: Offered[] = [];
    await atMost(8, listed.entries(), async ([i, { slug, listed: l }]) => {
      const count = countOf(held[i]);
      const marked = count.listed?.deck === l.deck && count.listed.main === l.main && count.listed.ally === l.ally;
      if (marked || (await markWhilePublic(slug, l))) offers.push(offeredOf(slug, { ...count, listed: l }, today));
    });
    for (const sort of BOARD_SORTS)
      for (const facet of BOARD_FACETS) {
        const key = keyOf(sort, facet);
        const mine = offers.filter((o) => boardFacets(o.main, o.ally).includes(facet)).map((o) => memberOf(o, sort));
        const board = boards.get(key) ?? EMPTY_BOARD;
        boards.set(key, offer(board, mine) ?? board);
      }
  }
  // The `all` views board last: it says the boards are built.
  const order = BOARD_SORTS.flatMap((sort) => BOARD_FACETS.map((facet) => ({ sort, facet }))).sort(
    (a, b) => Number(a.sort === 'views' && a.facet === ALL_FACET) - Number(b.sort === 'views' && b.facet === ALL_FACET),
  );
  for (const { sort, facet } of order) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: boardKey(sort, facet), ConsistentRead: true }));
    const rev = boardOf(Item)?.rev ?? 0;
    await documentClient().send(
      new PutCommand({ TableName: table(), Item: boardItem(sort, facet, boards.get(keyOf(sort, facet)) ?? EMPTY_BOARD, rev + 1) }),
    );
  }
  // A deck deleted or made private while the boards were built left no board then (there were none to leave):
  // each deck on one now is offered again from its count, and one whose count is gone or unmarked leaves.
  await reoffer(BOARD_SORTS, today);
  return { built: true, decks };
}

/** Marks a count of a deck whose `all` entry still stands (a deck public now), in one transaction: whether it did. */
async function markWhilePublic(slug: string, listed: Listed): Promise<boolean> {
  const outcome = await transact([
    { ConditionCheck: { TableName: table(), Key: entryKey(listed.deck, ALL_FACET), ConditionExpression: 'attribute_exists(pk)' } },
    { Update: { TableName: table(), Key: viewCountKey(slug), ...marking(listed) } },
  ]);
  if (outcome === 'conflict')
    throw Object.assign(new Error(`the count of ${slug} stayed held by other transactions`), { name: 'ThrottlingException' });
  return outcome === 'ok';
}

/** The update that marks a count with its public deck's id and factions. */
const marking = (listed: Listed) => ({
  UpdateExpression: `SET ${LISTED_ATTRS.map((_, i) => `#l${i} = :l${i}`).join(', ')}`,
  ExpressionAttributeNames: Object.fromEntries(LISTED_ATTRS.map((a, i) => [`#l${i}`, a])),
  ExpressionAttributeValues: Object.fromEntries(LISTED_ATTRS.map((a, i) => [`:l${i}`, listed[a]])),
});

/**
 * Marks a count with its public deck's id and factions (creating it where the deck has no view yet) and answers
 * the count as written: what a writer offers to the boards.
 */
export async function markListed(slug: string, listed: Listed): Promise<StoredCount> {
  const { Attributes } = await documentClient().send(
    new UpdateCommand({ TableName: table(), Key: viewCountKey(slug), ...marking(listed), ReturnValues: 'ALL_NEW' }),
  );
  return countOf(Attributes);
}

/** Takes the marks off a count whose deck is no longer public (if it has a count). */
export async function unmarkListed(slug: string): Promise<void> {
  await unlessConditionFailed(
    documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: viewCountKey(slug),
        UpdateExpression: `REMOVE ${LISTED_ATTRS.map((_, i) => `#l${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(LISTED_ATTRS.map((a, i) => [`#l${i}`, a])),
      }),
    ),
  );
}

/**
 * Every deck on the boards of `sorts` offered again from its count, with its week ending `day`; a deck whose count
 * is gone or no longer marked leaves. Answers the boards written.
 */
async function reoffer(sorts: readonly BoardSort[], day: number): Promise<number> {
  const keys = sorts.flatMap((sort) => BOARD_FACETS.map((facet) => boardKey(sort, facet)));
  const boards = (await getItems(keys)).map(boardOf);
  const members = [...new Map(boards.flatMap((b) => b?.members ?? []).map((m) => [m.id, m])).values()];
  const counts = await getItems(members.map((m) => viewCountKey(m.slug)));
  const offers: Offered[] = [];
  const leaving: { deck: string; facets: readonly string[] }[] = [];
  members.forEach((m, i) => {
    const count = countOf(counts[i]);
    if (count.listed?.deck === m.id) offers.push(offeredOf(m.slug, { ...count, listed: count.listed }, day));
    else leaving.push({ deck: m.id, facets: BOARD_FACETS });
  });
  return (await offerToBoards(offers, leaving, { today: day, sorts })).written;
}

/**
 * A new day on the boards of the week (the daily opener): each deck on a trending board offered again with its
 * week ending `day`, so that what left the week leaves the order. Answers the boards written.
 */
export const openDayOnBoards = (day: number): Promise<number> => reoffer(['trending'], day);
