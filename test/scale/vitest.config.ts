import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Seeding takes about 10 ms a deck (some 20 items each) on a core of its own; CI runs this beside `npm test` at the
 * lowest priority (.ci/run), where it gets only the CPU the suite leaves: a hang guard, not a time it must keep.
 */
const timeout = Math.max(1_800_000, Number(process.env.SCALE_DECKS ?? 10_000) * 30);

/** `npm run test:scale`: the 10,000-deck search and meta cost tests, each on a DynamoDB Local of its own. */
export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, '../..'),
    include: ['test/scale/*.test.ts'],
    testTimeout: timeout,
    hookTimeout: timeout,
    // Its two files side by side: each has a DynamoDB Local of its own and asserts counts and capacity units, never
    // times, so the other's load changes no result (one after the other they took 144 s and 188 s in a clean-clone CI).
    maxWorkers: 2,
    fileParallelism: true,
    // Its ports from slices of its own (test/support/runtime.ts): CI runs it beside `npm test`.
    env: { TEST_PORT_SLICE: '4' },
    // Nothing of `npm test`'s run's cache is written by this one beside it.
    cache: false,
  },
});
