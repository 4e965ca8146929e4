/**
 * How the test files are grouped and kept apart (test/support/groups.ts, test/support/runtime.ts): a file that says
 * it runs alone is found by its doc comment; the scale run that CI starts beside `npm test` takes its ports from
 * slices of its own, so the two runs never hand out the same port.
 */
import { describe, expect, it } from 'vitest';
import main from '../../vitest.config.ts';
import scale from '../scale/vitest.config.ts';
import { aloneFiles, RUNS_ALONE } from '../support/groups.ts';
import { portSlice } from '../support/runtime.ts';

describe('the test files’ groups', () => {
  it('a file that says it runs alone (a wall-clock bound it asserts) is found by its doc comment', () => {
    expect(aloneFiles(['test/scale', 'test/infra'])).toContain('test/runtime/faults.test.ts');
    expect(aloneFiles(['test/runtime/faults.test.ts'])).not.toContain('test/runtime/faults.test.ts');
    expect(RUNS_ALONE.test('/**\n * Runs alone: its bound.\n */')).toBe(true);
    expect(RUNS_ALONE.test('/**\n * It runs alone sometimes.\n */')).toBe(false);
  });

  it('the scale run beside `npm test` hands out ports from slices the main run never uses (its process and each worker’s)', () => {
    /** The port slices a run uses: its own process (pool 0) and each of its workers (VITEST_POOL_ID 1–maxWorkers). */
    const slicesOf = (env: Record<string, string | undefined>, workers: number) =>
      Array.from({ length: workers + 1 }, (_, pool) => portSlice({ ...env, VITEST_POOL_ID: String(pool) }));
    const ofMain = slicesOf({}, Number(main.test?.maxWorkers));
    const ofScale = slicesOf(scale.test?.env ?? {}, Number(scale.test?.maxWorkers));
    expect(new Set(ofMain).size).toBe(ofMain.length);
    expect(new Set(ofScale).size).toBe(ofScale.length);
    expect(ofScale.filter((slice) => ofMain.includes(slice))).toEqual([]);
    // Without its own first slice the scale run would take the main run's.
    expect(slicesOf({}, Number(scale.test?.maxWorkers)).filter((slice) => ofMain.includes(slice))).not.toEqual([]);
  });
});
