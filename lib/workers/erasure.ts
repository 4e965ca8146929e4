/**
 * An account's erasure (contract §9.4): DELETE /api/v1/users/:user_id with `{ "confirm": "<user_id>" }`
 * and a key of the account:delete scope (its endpoint: lib/account/erase.ts), and the erasure worker, which takes its
 * steps (lib/store/erasure-steps.ts).
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
import { eraseStep } from '#store/erasure-steps.ts';
import { ERASURE } from '#store/items/erasure.ts';
import { batchHandler, itemName, type Work, workByItem } from './batch.ts';

/**
 * How long the worker leaves the keys to the last request, and then waits after their closing before its
 * last sweep: the routes' function timeout, and 5 s for a write such a function sent just before it.
 */
export const SETTLE_MS = (FUNCTION_TIMEOUT_SECONDS + 5) * 1000;

/** The most one step takes: its wait (SETTLE_MS), and its sweep or closing (bounded by STEP_LIMITS). */
export const STEP_MS = SETTLE_MS + 10_000;

/** A step for each account whose erasure item changed in the batch (its records taken together). */
export function workOf(records: readonly DynamoDBRecord[]): Work[] {
  return workByItem(records, ({ keys, sequence }) => {
    const pk = String(keys.pk);
    if (!ERASURE.owns(pk)) return [];
    const userId = pk.slice(ERASURE.prefix.length);
    return [
      {
        first: sequence,
        what: itemName(keys),
        run: async () => logger.info('erasure step', { outcome: await eraseStep(userId, SETTLE_MS) }),
      },
    ];
  });
}

/**
 * The erasure worker's handler (batch.ts): a step that fails names its record (the batch is retried from
 * there; every step is idempotent) and holds up no other account's step; a step that would not finish
 * before the timeout is not begun. Steps that keep failing are given up on after the mapping's record age
 * (lib/routes/workers.ts WORKERS) and land in the discarded-changes queue, which is alarmed: the erasure item is
 * still there, and a change of it resumes the erasure (docs/operations.md).
 */
export const handleErasures = batchHandler('accountErasure', workOf, STEP_MS);
