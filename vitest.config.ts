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
          exclude: ['test/scale/**', 'test/infra/**', 'test/runtime/lifecycle.test.ts', 'node_modules/**'],
          sequence: { groupOrder: 0 },
        },
      },
      // ...then the synthesised stack, and the bundles under the Lambda lifecycle: their synths, bundle runs
      // and dozens of execution environments take both cores, and beside timing-bound tests of the service
      // they starved its stores of CPU (503s from a healthy DynamoDB Local: a delete past its 8 s budget).
      {
        extends: true,
        test: { name: 'infra', include: ['test/infra/**/*.test.ts', 'test/runtime/lifecycle.test.ts'], sequence: { groupOrder: 1 } },
      },
    ],
  },
});
