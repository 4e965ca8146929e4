import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

/** Seeding takes about 10 ms a deck (some 20 items each): give larger libraries (SCALE_DECKS) the time. */
const hookTimeout = Math.max(600_000, Number(process.env.SCALE_DECKS ?? 10_000) * 30);

/** `npm run test:scale`: the 10,000-deck search and meta cost tests, each on a DynamoDB Local of its own. */
export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, '../..'),
    include: ['test/scale/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout,
    // Its two files side by side: each has a DynamoDB Local of its own and asserts counts and capacity units, never
    // times, so the other's load changes no result (one after the other they took 144 s and 188 s in a clean-clone CI).
    maxWorkers: 2,
    fileParallelism: true,
  },
});
