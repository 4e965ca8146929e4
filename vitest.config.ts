import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/scale/**', 'node_modules/**'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Most test files wait on a store, a runtime or a browser rather than compute: two at a time on two cores.
    maxWorkers: 2,
  },
});
