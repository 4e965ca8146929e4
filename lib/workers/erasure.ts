/**
 * An account's erasure (contract §9.4): DELETE /api/v1/users/:user_id with `{ "confirm": "<user_id>" }`
 * and a key of the account:delete scope (its endpoint: erase.ts), and the erasure worker's steps.
 *
 * The request records the erasure (its item: store/items/erasure.ts), deletes every deck of the account
 * — each with its search entries, its like counter and its view count, in one transaction, as a
 * deck's delete does — so that from the answer on no share slug of them answers, and then revokes every
 * key of the account: the answer is the last thing a key of it gets. What is left goes in the background,
 * the erasure worker's steps, each one change of the erasure item after the last (the accounts table's
 * stream): the likes the account gave (the liked decks' counts go down), its remembered answers, the
 * purges of its decks' likes and versions (the store-change worker's, on each deck's delete), and at
 * last its keys and its account item, and the erasure item itself.
 *
 * A request that fails (503) has still begun the erasure: the worker goes on with it, and a repeat of the
 * request finishes what is left of it. The worker leaves the keys to the request for SETTLE_MS after it;
 * and after the keys are closed it waits SETTLE_MS more before its last sweep — a request that a key
 * authenticated before its revocation ends within its function's timeout, so that nothing such a request
 * writes (a deck, a like) outlives the erasure.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { logger } from '#logger';
import { FUNCTION_TIMEOUT_SECONDS } from '#routes/route.ts';
import { nextErasureMove } from '#rules/erasure.ts';
import { closeKeys, removeAccount } from '#store/accounts.ts';
import { atMost } from '#store/at-most.ts';
import { decksWhole, deleteDeck } from '#store/decks.ts';
import { endErasure, getErasure, keysClosed, stepErasure } from '#store/erasures.ts';
import { forgetAnswers } from '#store/idempotency.ts';
import { ERASURE } from '#store/items/erasure.ts';
import { giveBackLike, likedPage } from '#store/likes.ts';
import { batchHandler, itemName, type Work, workByItem } from './batch.ts';

/** Decks (or likes) deleted at once: an erasure never floods the store. */
const AT_ONCE = 8;
/** What one step of the worker takes at most of each kind: its work is bounded, whatever the account's size. */
export const STEP_LIMITS = { decks: 25, likes: 100, records: 100 } as const;
/**
 * How long the worker leaves the keys to the last request, and then waits after their closing before its
 * last sweep: the routes' function timeout, and 5 s for a write such a function sent just before it.
 */
export const SETTLE_MS = (FUNCTION_TIMEOUT_SECONDS + 5) * 1000;

/** Deletes a page of the account's decks (each one transaction with its entries, counter and view count): how many it found. */
export async function deleteDecks(userId: string, limit: number): Promise<number> {
  const { items } = await decksWhole(userId, limit);
  // A deck changed meanwhile (false) is read again with the next page.
  await atMost(AT_ONCE, items, async (deck) => void (await deleteDeck(deck)));
  return items.length;
}

/** Every key of the account revoked and none to be added (store/accounts.ts closeKeys), then recorded on its erasure: the request's last step, or the worker's when no request took it. */
export async function closeAllKeys(userId: string): Promise<void> {
  await closeKeys(userId);
  await keysClosed(userId);
}

/** What is left of an account but its keys and account item, a step's worth: how many items it found. */
async function sweep(userId: string): Promise<number> {
  const decks = await deleteDecks(userId, STEP_LIMITS.decks);
  const likes = await likedPage(userId, STEP_LIMITS.likes);
  await atMost(AT_ONCE, likes, (slug) => giveBackLike(userId, slug));
  const records = await forgetAnswers(userId, STEP_LIMITS.records);
  return decks + likes.length + records;
}

export type StepOutcome = 'none' | 'swept' | 'waited' | 'closed' | 'ended' | 'repeated';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One step of an account's erasure (the worker's, on each change of its erasure item), bounded: a sweep
 * of at most STEP_LIMITS, or one wait of at most SETTLE_MS, or the keys' closing, or the end
 * (rules/erasure.ts nextErasureMove says which, and when). Each but the end changes the item, which asks
 * for the next step; a step that fails is retried.
 */
export async function eraseStep(userId: string, now: () => number = Date.now, wait = pause): Promise<StepOutcome> {
  const erasure = await getErasure(userId);
  if (!erasure) return 'none';
  if ((await sweep(userId)) > 0) {
    await stepErasure(userId);
    return 'swept';
  }
  const next = nextErasureMove(erasure, now(), SETTLE_MS);
  if (next.move === 'wait') {
    await wait(next.ms);
    await stepErasure(userId);
    return 'waited';
  }
  if (next.move === 'close_keys') {
    await closeAllKeys(userId);
    return 'closed';
  }
  await removeAccount(userId);
  return (await endErasure(userId, erasure.round)) ? 'ended' : 'repeated';
}

/** The most one step takes: its wait (SETTLE_MS), and its sweep or closing (bounded by STEP_LIMITS). */
export const STEP_MS = SETTLE_MS + 10_000;

/** A step for each account whose erasure item changed in the batch (its records taken together). */
export function workOf(records: readonly DynamoDBRecord[]): Work[] {
  return workByItem(records, ({ keys, sequence }) => {
    const pk = String(keys.pk);
    if (!ERASURE.owns(pk)) return [];
    const userId = pk.slice(ERASURE.prefix.length);
    return [{ first: sequence, what: itemName(keys), run: async () => logger.info('erasure step', { outcome: await eraseStep(userId) }) }];
  });
}

/**
 * The erasure worker's handler (batch.ts): a step that fails names its record (the batch is retried from
 * there; every step is idempotent) and holds up no other account's step; a step that would not finish
 * before the timeout is not begun. Steps that keep failing are given up on after the mapping's record age
 * (lib/workers/ WORKERS) and land in the discarded-changes queue, which is alarmed: the erasure item is
 * still there, and a change of it resumes the erasure (docs/operations.md).
 */
export const handleErasures = batchHandler('accountErasure', workOf, STEP_MS);
