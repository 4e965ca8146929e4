import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

/** `npm run test:scale`: the 10,000-deck search cost test, on a DynamoDB Local of its own. */
export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, '../..'),
    include: ['test/scale/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
