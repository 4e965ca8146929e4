/**
 * How the test files are grouped (test/support/groups.ts, vitest.config.ts): a file that says it runs alone is found
 * by its doc comment, and the run's config gives exactly those files a group of their own, one at a time, out of the
 * service's group of files run side by side.
 */
import { describe, expect, it } from 'vitest';
import main from '../../vitest.config.ts';
import { aloneFiles, RUNS_ALONE } from '../support/groups.ts';

type Project = { test: { name: string; include: string[]; exclude?: string[]; maxWorkers?: number } };

describe('the test files’ groups', () => {
  it('a file that says it runs alone (a wall-clock bound it asserts) is found by its doc comment', () => {
    expect(aloneFiles(['test/scale', 'test/infra'])).toContain('test/runtime/faults.test.ts');
    expect(aloneFiles(['test/runtime/faults.test.ts'])).not.toContain('test/runtime/faults.test.ts');
    expect(RUNS_ALONE.test('/**\n * Runs alone: its bound.\n */')).toBe(true);
    expect(RUNS_ALONE.test('/**\n * It runs alone sometimes.\n */')).toBe(false);
  });

  it('those files run one at a time in a group of their own, and the service’s group, side by side, leaves them out', () => {
    const projects = main.test?.projects as Project[];
    const named = (name: string) => projects.find((p) => p.test.name === name)?.test;
    const alone = aloneFiles(['test/scale', 'test/infra']);
    expect(alone.length).toBeGreaterThan(0);
    expect(named('alone')).toMatchObject({ include: alone, maxWorkers: 1 });
    const service = named('service');
    expect(service?.maxWorkers).toBeGreaterThan(1);
    for (const file of alone) expect([file, service?.exclude?.includes(file)]).toEqual([file, true]);
  });
});
