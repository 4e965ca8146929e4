/**
 * Waiting for the store-change worker (lib/workers/): folds and purges follow writes through the table's
 * change stream, within a documented bound (docs/data-model.md), not within the request. A test reads
 * what it checks until the value is what it expects or the bound has passed, then asserts on the last
 * value read — so a value that never comes fails with what was there instead.
 *
 * The bound is the worker's on a machine with time to spare; on a slower one the local store (DynamoDB Local runs one
 * transaction at a time) hands a burst's changes over later. So past the bound a read that is not yet what the test
 * expects is taken only once the runtime's stream workers have been at rest since the wait began (a pass over every
 * shard that read nothing, begun after it: `GET /_local/streams`, infra/local/main.ts) — what is read then is what the
 * workers leave, however long they took — or at WORKER_CAP_MS whatever they do.
 */
import { baseUrl } from './api.ts';

export const WORKER_BOUND_MS = 15_000;
/** The longest a wait goes on while the workers are still at work (eight bounds; a test that waits on them allows it). */
export const WORKER_CAP_MS = 120_000;

/** When the runtime's stream workers last found their streams read to the end (0 while at work; null: none, or not this runtime). */
export async function workersRestingSince(base = baseUrl()): Promise<number | null> {
  const answer = await fetch(`${base}/_local/streams`).catch(() => undefined);
  if (answer?.status !== 200) return null;
  return ((await answer.json()) as { resting_since: number | null }).resting_since;
}

export async function settled<T>(read: () => Promise<T>, done: (value: T) => boolean, boundMs = WORKER_BOUND_MS): Promise<T> {
  const began = Date.now();
  for (;;) {
    // Asked before the read: at rest since the wait began, the workers have handed over every change made before it.
    const past = Date.now() > began + boundMs;
    const resting = past ? await workersRestingSince() : null;
    const value = await read();
    if (done(value) || (past && (resting === null || resting >= began)) || Date.now() > began + WORKER_CAP_MS) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
