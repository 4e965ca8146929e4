import { defineConfig } from 'vitest/config';
import { aloneFiles, StoresFirst } from './test/support/groups.ts';

/**
 * The files that assert a wall-clock bound say so (" * Runs alone: <why>" in their doc comment: test/support/groups.ts)
 * and run one at a time with no other file beside them. Every other file of the service runs side by side, three at a
 * time, a file with a DynamoDB Local of its own included: DynamoDB Local runs one transaction at a time, and a file's
 * requests wait on their hops (test process, runtime, store) more than on a core, so three files keep two cores busier.
 * Measured (issue 59, 2026-11-28, this 2-core machine, every test passing each time): such files one at a time, 857–867
 * s of vitest; two at a time, 690 s (643 s with C1 below); three, 584 s. Tried before and measured slower: tables of
 * their own in one DynamoDB Local a test worker (1,064 s, 503s: one JVM's one transaction at a time shared), one store
 * for every file in turn (files 2–8 times slower on a JVM holding the deleted tables of the files before). Side by side
 * once held a store 7 s (2026-11-24), before the store's JVM took the serial collector and a request's store attempts
 * waited what was left of its time instead of 2.5 s (issue 53); none since. The stack's and the lifecycle's files run in
 * a group of their own, two at a time, as do the scale tests (after the suite: .ci/run says why).
 */
const LIFECYCLE = 'test/runtime/lifecycle.test.ts';
const ALONE = aloneFiles(['test/scale', 'test/infra', LIFECYCLE]);

/**
 * The JVMs of this run's DynamoDB Locals compile with C1 alone: each lives one test file (or one run), too short for
 * C2's compilations to pay back the CPU they take from the files beside it — 643 s of vitest with it against 690 s
 * without (two files at a time, one run each, 2026-11-28). The scale tests' stores, each seeding 200,000 items, keep
 * C2 (157 s with C1, 128 s without): their config does not set it. startDynamoLocal adds nothing to a caller's setting.
 */
process.env.JDK_JAVA_OPTIONS ??= '-XX:+UseSerialGC -XX:TieredStopAtLevel=1';

/** 100 requests at once on a runtime of its own with the deployed budget: it measures the service, so nothing runs beside it. */
const LOAD = 'test/api/load.test.ts';

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup.ts'],
    // A timeout is not a budget (budgets are counts and sizes): it ends a test that hangs. Tests that run the CLI in a
    // subprocess a few times (tsx's start each time) took up to 30 s on this 2-core machine in CI (2026-11-29).
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // On a clean clone, the files that start a store of their own first (test/support/groups.ts).
    sequence: { sequencer: StoresFirst },
    // The stack's and the lifecycle's files, two at a time (their synths and execution environments take both cores).
    maxWorkers: 2,
    projects: [
      // How vitest 5 runs these (its groupSpecs): groups by sequence.groupOrder, lowest first, each to its end
      // before the next; but a project of maxWorkers 1 at the default groupOrder 0 is not in group 0 — its
      // files run one at a time in a group of their own after all the others. So: the service, three files at a
      // time (HTTP, the shared runtime, stores of their own, the browser); then the 100 requests at once, alone;
      // then the stack and the lifecycle; then the files that run alone, one at a time.
      {
        extends: true,
        test: {
          name: 'service',
          include: ['test/**/*.test.ts'],
          exclude: ['test/scale/**', 'test/infra/**', LIFECYCLE, LOAD, ...ALONE, 'node_modules/**'],
          sequence: { groupOrder: 0 },
          // Three at a time on two cores: their requests wait on hops more than on a core (above).
          maxWorkers: 3,
        },
      },
      { extends: true, test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 0 } } },
      // The 100 requests at once, alone: beside another file of the service's the store's transactions queued past
      // a request's 8 s budget — nine PATCHes answered 503 (seen twice in CI, AbortError) from a store that was
      // healthy but starved of CPU.
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
