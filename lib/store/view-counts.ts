/**
 * Views, one small item a deck (items/view-count.ts): a deck's exact count, the ordinal of the last view batch
 * of its group it holds, and its views of each day of the week. Views reach it from the access log, a window
 * at a time (view-log.ts): one read and one UpdateItem a deck a window, however many of its views the window
 * holds — the floor for a long tail (contract §11.1: about one write unit per distinct deck a window). A
 * shared read gets a deck's count with one GetItem of that item alone (≤ 1 KB: half a read unit), whatever
 * the library's size.
 */
import { DeleteCommand, GetCommand, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dayOf, type SlotWrite, slotWrites, weekViews } from '#rules/week.ts';
import { documentClient, type TransactItem, unlessConditionFailed } from './client.ts';
import { ALL_FACET, SORT_INDEX } from './items/search-entry.ts';
import { countOf, dayAttr, type StoredCount, viewCountKey, viewsAttr } from './items/view-count.ts';
import { DECKS, tableName } from './tables.ts';

const table = () => tableName(DECKS);

/**
 * A deck's stored views, and of them its views of the week that ends `today` — or on the later day its count
 * knows (a day the daily opener opened already) — with one eventually consistent GetItem.
 */
export async function storedCounts(slug: string, today = dayOf(Date.now())): Promise<{ views: number; views_7d: number }> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: viewCountKey(slug) }));
  const count = countOf(Item);
  return { views: count.views, views_7d: weekViews(count.slots, Math.max(today, count.day ?? today)) };
}

/** A deck's stored view count. */
export const storedViews = async (slug: string): Promise<number> => (await storedCounts(slug)).views;

/** A deck's count read consistently (what a write of it is conditional on). */
export async function readCount(slug: string): Promise<StoredCount & { exists: boolean }> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: viewCountKey(slug), ConsistentRead: true }));
  return { ...countOf(Item), exists: Item !== undefined };
}

/** Forgets a deleted deck's views (in the delete's transaction): its count goes. */
export const forgetViews = (slug: string): TransactItem => ({ Delete: { TableName: table(), Key: viewCountKey(slug) } });
/** Forgets a gone deck's views on their own: a count a view brought back after its deck's delete (lib/workers/view-folds.ts). */
export const forgetViewsNow = (slug: string) => documentClient().send(new DeleteCommand({ TableName: table(), Key: viewCountKey(slug) }));

/** What a write adds to a count: views in all, and by day; and to its revision (1 unless said). */
export interface CountAdd {
  views: number;
  byDay: ReadonlyMap<number, number>;
  rev?: number;
}

/**
 * The update that adds views to a count as it was read (`held`): the total with ADD, each day of the week into
 * its slot (lib/rules/week.ts slotWrites), `extra` set beside; conditional on every slot it touches still
 * holding the day read, and on `condition` (the caller's: the count's ordinal, or its migration).
 */
function addition(held: StoredCount, add: CountAdd, today: number, extra: Record<string, unknown>) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':n': add.views, ':one': add.rev ?? 1 };
  const sets: string[] = [];
  const conditions: string[] = [];
  slotWrites(held.days, add.byDay, today).forEach((w: SlotWrite, i) => {
    names[`#d${i}`] = dayAttr(w.slot);
    names[`#n${i}`] = viewsAttr(w.slot);
    values[`:d${i}`] = w.day;
    values[`:v${i}`] = w.views;
    if (w.kind === 'add') {
      sets.push(`#n${i} = #n${i} + :v${i}`);
      conditions.push(`#d${i} = :d${i}`);
    } else {
      sets.push(`#d${i} = :d${i}`, `#n${i} = :v${i}`);
      if (w.held === undefined) conditions.push(`attribute_not_exists(#d${i})`);
      else {
        values[`:h${i}`] = w.held;
        conditions.push(`#d${i} = :h${i}`);
      }
    }
  });
  Object.entries(extra).forEach(([name, value], i) => {
    names[`#x${i}`] = name;
    values[`:x${i}`] = value;
    sets.push(`#x${i} = :x${i}`);
  });
  return {
    UpdateExpression: `ADD #views :n, #rev :one${sets.length ? ` SET ${sets.join(', ')}` : ''}`,
    names: { ...names, '#views': 'views', '#rev': 'rev' },
    values,
    conditions,
  };
}

/**
 * Adds views to a deck's count once: `pending(held)` says, of the count as read consistently, what is still
 * to add and what the write must find (`condition`, with its names and values) and set beside (`extra`); the
 * write is conditional on that and on the slots it touches, and a count that moved under it is read again.
 * Answers the items written (0: nothing left to add) and the count as written (or as read, when nothing was):
 * what the boards are offered (boards.ts).
 */
export async function addToCount(
  slug: string,
  pending: (
    held: StoredCount & { exists: boolean },
  ) =>
    | { add: CountAdd; condition: string; names?: Record<string, string>; values?: Record<string, unknown>; extra: Record<string, unknown> }
    | undefined,
  today: number,
): Promise<{ written: number; count: StoredCount }> {
  for (let tries = 0; tries < 5; tries++) {
    const held = await readCount(slug);
    const todo = pending(held);
    if (!todo) return { written: 0, count: held };
    const update = addition(held, todo.add, today, todo.extra);
    const done = await unlessConditionFailed(
      documentClient().send(
        new UpdateCommand({
          TableName: table(),
          Key: viewCountKey(slug),
          UpdateExpression: update.UpdateExpression,
          ConditionExpression: [`(${todo.condition})`, ...update.conditions].join(' AND '),
          ExpressionAttributeNames: { ...update.names, ...todo.names },
          ExpressionAttributeValues: { ...update.values, ...todo.values },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    if (done) return { written: 1, count: countOf(done.Attributes) };
  }
  throw new Error(`views not added to the count of ${slug}: it kept moving`);
}

/**
 * The public decks whose folded views of the week are above 0 (search's `all` facet by trending, while its
 * entries hold a week): the decks a new day can take views of the week from. Their share slugs, a page at a time.
 */
export async function* decksWithAWeek(): AsyncGenerator<string> {
  const { index } = SORT_INDEX.trending;
  for await (const page of paginateQuery(
    { client: documentClient(), pageSize: 200 },
    {
      TableName: table(),
      IndexName: index,
      KeyConditionExpression: 'facet = :all',
      ExpressionAttributeValues: { ':all': ALL_FACET },
      ProjectionExpression: 'slug, views_7d',
    },
  )) {
    for (const item of page.Items ?? []) {
      if (Number(item.views_7d ?? 0) === 0) return;
      yield String(item.slug);
    }
  }
}

/**
 * Opens a new day on a deck's count (the daily opener): its week now ends on `day`, so the day 8 before leaves
 * it; a write, so that the store-change worker folds what the week lost. Answers the items written (0: opened
 * already, or no count).
 */
export async function openDay(slug: string, day: number): Promise<number> {
  const done = await unlessConditionFailed(
    documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: viewCountKey(slug),
        UpdateExpression: 'SET opened = :day ADD #rev :one',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(opened) OR opened < :day)',
        ExpressionAttributeNames: { '#rev': 'rev' },
        ExpressionAttributeValues: { ':day': day, ':one': 1 },
      }),
    ),
  );
  return done ? 1 : 0;
}

/** A count's revision moved on by one (a repair's fold needs an order newer than any before it): its new revision. */
export async function bumpCount(slug: string): Promise<number> {
  const { Attributes } = await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: viewCountKey(slug),
      UpdateExpression: 'ADD #rev :one',
      ExpressionAttributeNames: { '#rev': 'rev' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.rev ?? 0);
}
