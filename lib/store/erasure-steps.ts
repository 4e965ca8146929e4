/**
 * An account's erasure's steps (contract §9.4), in the store: what the request does at once (its decks deleted, its
 * keys closed: lib/account/erase.ts) and each step of the erasure worker's (lib/workers/erasure.ts) — a sweep of what
 * is left (decks, likes, remembered answers, entries in events, events organized, webhooks), a wait, the keys' closing, or the end (rules/erasure.ts nextErasureMove says which). The worker's module
 * says how long a step waits (its SETTLE_MS: the routes' function timeout, a deployment's figure); the steps are here,
 * below every endpoint and worker that takes them.
 */
import { nextErasureMove } from '#rules/erasure.ts';
import { closeKeys, removeAccount } from './accounts.ts';
import { atMost } from './at-most.ts';
import { decksWhole, deleteDeck } from './decks.ts';
import { endErasure, getErasure, keysClosed, stepErasure } from './erasures.ts';
import { enteredPage, eraseEntry, eraseEvent, organizedPage } from './events.ts';
import { forgetAnswers } from './idempotency.ts';
import { giveBackLike, likedPage } from './likes.ts';
import { eraseWebhooks } from './webhooks.ts';

/** Decks (or likes) deleted at once: an erasure never floods the store. */
const AT_ONCE = 8;
/** What one step of the worker takes at most of each kind: its work is bounded, whatever the account's size. */
export const STEP_LIMITS = { decks: 25, likes: 100, records: 100, entries: 100, events: 5, deliveries: 100 } as const;

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
  // Its entries in events (their lists name the account), locked or not; the events it organizes, their entries first.
  const entered = await enteredPage(userId, STEP_LIMITS.entries);
  await atMost(AT_ONCE, entered, (eventId) => eraseEntry(eventId, userId));
  let events = 0;
  for (const eventId of await organizedPage(userId, STEP_LIMITS.events)) events += await eraseEvent(userId, eventId, STEP_LIMITS.entries);
  // Its webhooks: no delivery is made for it from their deletion on.
  const webhooks = await eraseWebhooks(userId, STEP_LIMITS.deliveries);
  return decks + likes.length + records + entered.length + events + webhooks;
}

export type StepOutcome = 'none' | 'swept' | 'waited' | 'closed' | 'ended' | 'repeated';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One step of an account's erasure (the worker's, on each change of its erasure item), bounded: a sweep
 * of at most STEP_LIMITS, or one wait of at most `settleMs`, or the keys' closing, or the end
 * (rules/erasure.ts nextErasureMove says which, and when). Each but the end changes the item, which asks
 * for the next step; a step that fails is retried.
 */
export async function eraseStep(userId: string, settleMs: number, now: () => number = Date.now, wait = pause): Promise<StepOutcome> {
  const erasure = await getErasure(userId);
  if (!erasure) return 'none';
  if ((await sweep(userId)) > 0) {
    await stepErasure(userId);
    return 'swept';
  }
  const next = nextErasureMove(erasure, now(), settleMs);
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
