import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Most test files wait on a store, a runtime or a browser rather than compute: two at a time on two cores.
    maxWorkers: 2,
    projects: [
      // The service first (HTTP, runtime, store, browser), two files at a time...
      {
        extends: true,
        test: {
          name: 'service',
          include: ['test/**/*.test.ts'],
          exclude: ['test/scale/**', 'test/infra/**', 'node_modules/**'],
          sequence: { groupOrder: 0 },
        },
      },
      // ...then the synthesised stack: its synths and bundle runs take both cores, and beside timing-bound
      // tests of the service they starved the store of CPU (503s from a healthy DynamoDB Local).
      { extends: true, test: { name: 'infra', include: ['test/infra/**/*.test.ts'], sequence: { groupOrder: 1 } } },
    ],
  },
});
