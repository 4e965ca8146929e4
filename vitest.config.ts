import { defineConfig } from 'vitest/config';
import { aloneFiles, ownStoreFiles } from './test/support/own-store.ts';

/** The service's test files that start a DynamoDB Local of their own (test/support/own-store.ts derives them from what they
 * call), and those that say they run alone: they run one at a time. Tried otherwise (issue 59, 2026-11-28): tables of
 * their own in one DynamoDB Local a test worker — side by side they answered 503s past the 8 s budget and took 1,064 s
 * of vitest against 857 s; one at a time on one store, files ran 2–8 times slower than on stores of their own (a JVM
 * that held the deleted tables of the files before) and three failed. The stack's and the lifecycle's files run in a
 * group of their own, as do the scale tests. */
const LIFECYCLE = 'test/runtime/lifecycle.test.ts';
const OWN_STORE = ownStoreFiles(['test/scale', 'test/infra', LIFECYCLE]);
/** And those that say they run alone (" * Runs alone: <why>" in their doc comment: a wall-clock bound they assert). */
const ALONE = [...new Set([...OWN_STORE, ...aloneFiles(['test/scale', 'test/infra', LIFECYCLE])])];

/** 100 requests at once against the shared runtime: it measures the service, so nothing runs beside it. */
const LOAD = 'test/api/load.test.ts';

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Most test files wait on a store, a runtime or a browser rather than compute: two at a time on two cores.
    maxWorkers: 2,
    projects: [
      // How vitest 5 runs these (its groupSpecs): groups by sequence.groupOrder, lowest first, each to its end
      // before the next; but a project of maxWorkers 1 at the default groupOrder 0 is not in group 0 — its
      // files run one at a time in a group of their own after all the others. So: the service, two files at a
      // time (HTTP, the shared runtime, the browser); then the 100 requests at once, alone; then the stack and
      // the lifecycle; then the files that start a DynamoDB Local of their own, one at a time, alone (two of
      // them at once — a JVM starting beside another's burst of transactions — held a store for 7 s and more:
      // 503s from a healthy store, past a request's 8 s budget).
      {
        extends: true,
        test: {
          name: 'service',
          include: ['test/**/*.test.ts'],
          exclude: ['test/scale/**', 'test/infra/**', LIFECYCLE, LOAD, ...ALONE, 'node_modules/**'],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'stores', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 0 } } },
      // The 100 requests at once, alone: beside another file of the service's (both on the shared runtime and
      // its store) the store's transactions queued past a request's 8 s budget — nine PATCHes answered 503
      // (seen twice in CI, at 8,007–8,045 ms, AbortError) from a store that was healthy but starved of CPU;
      // alone it took 8 s (CI, 2026-11-26).
      { extends: true, test: { name: 'load', include: [LOAD], sequence: { groupOrder: 1 } } },
      // ...then the synthesised stack, and the bundles under the Lambda lifecycle: their synths, bundle runs
      // and dozens of execution environments take both cores, and beside timing-bound tests of the service
      // they starved its stores of CPU (503s from a healthy DynamoDB Local: a delete past its 8 s budget).
      {
        extends: true,
        test: { name: 'infra', include: ['test/infra/**/*.test.ts', LIFECYCLE], sequence: { groupOrder: 2 } },
      },
    ],
  },
});
