/**
 * Waiting for the store-change worker (lib/workers/): folds and purges follow writes through the table's
 * change stream, within a documented bound (docs/data-model.md), not within the request. A test reads
 * what it checks until the value is what it expects or the bound has passed, then asserts on the last
 * value read — so a value that never comes fails with what was there instead.
 */
export const WORKER_BOUND_MS = 15_000;

export async function settled<T>(read: () => Promise<T>, done: (value: T) => boolean, boundMs = WORKER_BOUND_MS): Promise<T> {
  const until = Date.now() + boundMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
