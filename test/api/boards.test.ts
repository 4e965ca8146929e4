/**
 * The browsed orders exact at rest (contract §12.1), on a runtime of its own holding 300 public decks (three boards'
 * worth: a board holds 100):
 * four read 3, 9, 30 and 300 times, the rest 0–2 times (a Zipf head cut at 2: 60 decks twice, 60 once). Views
 * reach the store by the real counting path — the access log's batches (handed to countViews as CloudWatch Logs
 * hands them), the view log, the view-log worker's window, the counts and the boards. After one window,
 * `sort=views` and `sort=trending`, unfiltered and by the four's main faction, list the four first in that order
 * with their exact counts, then the decks read twice, by id; the same after a day is opened; and after one of the
 * four turns private it leaves, and the next comes up. Walking an order past its board's exact part lists every
 * public deck once, counts never rising down the list. Boards lost are built again by `deckctl boards build`.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_OPENER } from '#routes/workers.ts';
import { BOARD_FACETS, BOARD_SORTS } from '#rules/boards.ts';
import type { FactionId } from '#rules/factions.ts';
import { DAY_MS, dayOf } from '#rules/week.ts';
import { documentClient } from '#store/client.ts';
import { boardKey } from '#store/items/board.ts';
import { viewCountKey } from '#store/items/view-count.ts';
import { DECKS as DECKS_TABLE, tableName } from '#store/tables.ts';
import { openViewDay } from '#workers/open-day.ts';
import { asRoute } from '../../infra/local/grants-guard.ts';
import { scheduledEvent } from '../../infra/local/schedule.ts';
import { call, code, newOwner, type Owner, walkSearch } from '../support/api.ts';
import { deckctl } from '../support/deckctl.ts';
import type { OwnRuntime } from '../support/runtime.ts';
import { settled } from '../support/settle.ts';
import { logViews, viewsRuntime } from '../support/views.ts';

const DECKS = 300;
const PAIRS: [FactionId, FactionId][] = [
  ['germany', 'italy'],
  ['soviet', 'usa'],
  ['japan', 'usa'],
  ['britain', 'france'],
  ['usa', 'britain'],
  ['germany', 'finland'],
];
/** The four, by their views; all of one main faction. */
const FOUR = [300, 30, 9, 3] as const;
const MAIN: FactionId = 'germany';

interface Made {
  id: string;
  slug: string;
  main: FactionId;
  views: number;
}
let runtime: OwnRuntime | undefined;
let owner: Owner;
const made: Made[] = [];

/** Views served today, as the access log's subscription hands them to countViews: one log event a view. */
const viewed = (views: ReadonlyMap<string, number>) => logViews(views, Date.now(), 'boards');

type Item = { id: string; views: number; views_7d: number };
const page = async (query: string) => {
  const r = await call('GET', `/api/v1/decks?${query}`);
  expect(r.status, r.text).toBe(200);
  return r.body.data as Item[];
};

/** What a browsed order must show first: the public decks read at least twice, by views, ties by id. */
const head = (main?: FactionId) =>
  made
    .filter((d) => d.views >= 2 && (!main || d.main === main))
    .sort((a, b) => b.views - a.views || (a.id < b.id ? -1 : 1))
    .map((d) => [d.id, d.views]);

const QUERIES = ['sort=views', 'sort=trending', `sort=views&main_faction=${MAIN}`, `sort=trending&main_faction=${MAIN}`];
const countIn = (query: string, item: Item) => (query.includes('trending') ? item.views_7d : item.views);

/** Every board deleted, as if lost (or never built). */
async function loseBoards() {
  const keys = BOARD_SORTS.flatMap((sort) => BOARD_FACETS.map((facet) => boardKey(sort, facet)));
  for (const Key of keys) await documentClient().send(new DeleteCommand({ TableName: tableName(DECKS_TABLE), Key }));
}

async function expectHeads() {
  for (const query of QUERIES) {
    const want = head(query.includes('main_faction') ? MAIN : undefined).slice(0, 10);
    // Within a minute: the first window also builds the boards from the library's decks.
    const got = await settled(
      () => page(`${query}&limit=10`),
      (items) => JSON.stringify(items.map((i) => [i.id, countIn(query, i)])) === JSON.stringify(want),
      60_000,
    );
    expect([query, got.map((i) => [i.id, countIn(query, i)])]).toEqual([query, want]);
  }
}

beforeAll(async () => {
  // Days are UTC days: the test takes minutes, and starts clear of midnight.
  runtime = await viewsRuntime('boards', 300_000);
  owner = await newOwner();
  for (let i = 0; i < DECKS; i += 25)
    await Promise.all(
      Array.from({ length: Math.min(25, DECKS - i) }, async (_, j) => {
        const n = i + j;
        const [main, ally] = n < FOUR.length ? [MAIN, 'italy' as FactionId] : (PAIRS[n % PAIRS.length] as [FactionId, FactionId]);
        const r = await call('POST', owner.decks, {
          key: owner.key,
          body: { deck_code: code(main, ally, n % 7), guide: { system: `Deck ${n}` }, visibility: 'public' },
        });
        expect(r.status, r.text).toBe(201);
        // The rest by a Zipf head cut at 2 (rank r: 120 / (r + 1) views, at most 2): 60 read twice, 60 once.
        const views = n < FOUR.length ? (FOUR[n] as number) : Math.min(2, Math.floor(120 / (n - FOUR.length + 1)));
        made[n] = { id: r.body.data.id, slug: r.body.data.share_slug, main, views };
      }),
    );
  await viewed(new Map(made.filter((d) => d.views > 0).map((d) => [d.slug, d.views])));
}, 600_000);

afterAll(() => runtime?.close());

describe('the browsed orders, exact at rest (contract §12.1)', () => {
  it('after one window: the four in order with their exact counts, then the decks read twice by id — unfiltered and by main faction, by views and by trending', async () => {
    expect(made.filter((d) => d.views === 2)).toHaveLength(60);
    expect(made.filter((d) => d.views === 1)).toHaveLength(60);
    await expectHeads();
  }, 120_000);

  it('walking past the exact part: every public deck once, counts never rising down the list; pages by number the same', async () => {
    for (const query of ['sort=views', 'sort=trending']) {
      const { slugs } = await walkSearch(query, 50);
      expect(new Set(slugs).size).toBe(DECKS);
      expect([...slugs].sort()).toEqual(made.map((d) => d.slug).sort());
    }
    // Pages by number across the seam (the exact part is 64 decks: the four and the 60 read twice), within a
    // request's read budget (contract §8.1: deeper numbered pages come back short, with a cursor).
    const items: Item[] = [];
    for (let p = 1; p <= 3; p++) items.push(...(await page(`sort=views&limit=30&page=${p}`)));
    const walked = (await walkSearch('sort=views', 50)).slugs.map((s) => made.find((d) => d.slug === s)?.id);
    expect(items.map((i) => i.id)).toEqual(walked.slice(0, 90));
    // The counts shown never rise down the list, across the seam and past it (walked by cursor).
    const shown: Item[] = [];
    let cursor: string | null = null;
    do {
      const r = await call('GET', `/api/v1/decks?sort=views&limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      shown.push(...(r.body.data as Item[]));
      cursor = r.body.meta.next_cursor;
    } while (cursor);
    expect(shown).toHaveLength(DECKS);
    for (let i = 1; i < shown.length; i++) expect((shown[i] as Item).views).toBeLessThanOrEqual((shown[i - 1] as Item).views);
  }, 120_000);

  it('the same after a day passes (the week moves, today’s views still in it)', async () => {
    const tomorrow = new Date((dayOf(Date.now()) + 1) * DAY_MS);
    await asRoute(DAY_OPENER, () => openViewDay(scheduledEvent(tomorrow, DAY_OPENER.name)));
    await expectHeads();
  }, 120_000);

  it('boards lost in a small library: search reads the index alone, and the next views window builds them again (a count not yet marked marked while its deck is public)', async () => {
    await loseBoards();
    expect((await page('sort=views&limit=10')).map((i) => i.views)).toEqual(Array(10).fill(0));
    // The deck read 9 times: its count's marks taken off, as before the store-change worker marks a new deck's.
    const nine = made.find((d) => d.views === 9) as Made;
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(DECKS_TABLE),
        Key: viewCountKey(nine.slug),
        UpdateExpression: 'REMOVE #d, #m, #a',
        ExpressionAttributeNames: { '#d': 'deck', '#m': 'main', '#a': 'ally' },
      }),
    );
    // One more view of it: the window builds the boards from every public deck, marking its count again.
    await viewed(new Map([[nine.slug, 1]]));
    nine.views = 10;
    await expectHeads();
  }, 120_000);

  it('boards lost (or never built, in a library past what the view-log worker builds): search reads the index alone; `deckctl boards build` builds them exact again', async () => {
    await loseBoards();
    // The index alone: folded counts (none of these decks has views enough for a fold), so every deck shows 0.
    expect((await page('sort=views&limit=10')).map((i) => i.views)).toEqual(Array(10).fill(0));
    const run = await deckctl(['boards', 'build', '--json']);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ built: true, decks: DECKS });
    await expectHeads();
  }, 120_000);

  it('a deck of the four made private leaves every order, and the next comes up; made public again, it comes back', async () => {
    const gone = made[1] as Made;
    const r = await call('PATCH', `${owner.decks}/${gone.id}`, { key: owner.key, body: { visibility: 'private' } });
    expect(r.status, r.text).toBe(200);
    made.splice(1, 1);
    await expectHeads();
    const { slugs } = await walkSearch('sort=trending', 50);
    expect(slugs).not.toContain(gone.slug);
    expect(slugs).toHaveLength(DECKS - 1);
    const back = await call('PATCH', `${owner.decks}/${gone.id}`, { key: owner.key, body: { visibility: 'public' } });
    expect(back.status, back.text).toBe(200);
    made.splice(1, 0, gone);
    await expectHeads();
  }, 120_000);
});
