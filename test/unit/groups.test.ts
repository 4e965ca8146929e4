/**
 * How the test files are grouped and ordered (test/support/groups.ts, vitest.config.ts): a file that says it runs alone
 * is found by its doc comment, and the run's config gives exactly those files a group of their own, one at a time, out
 * of the service's group of files run side by side; the files that start a DynamoDB Local of their own (first on a clean
 * clone) are found by what they call — each helper it looks for exists and starts one, and a helper that comes to start
 * one is found.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as dynamodb from '../../infra/local/dynamodb.ts';
import main from '../../vitest.config.ts';
import { aloneFiles, ownStoreFiles, RUNS_ALONE, STORE_STARTERS, startersOf, startsOwnStore } from '../support/groups.ts';
import * as isolated from '../support/isolated.ts';
import * as runtime from '../support/runtime.ts';
import * as store from '../support/store.ts';
import * as views from '../support/views.ts';

const ROOT = join(import.meta.dirname, '../..');

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

  it('every helper looked for is an exported function', () => {
    const exported = { ...dynamodb, ...isolated, ...runtime, ...store, ...views } as Record<string, unknown>;
    for (const name of STORE_STARTERS) expect([name, typeof exported[name]]).toEqual([name, 'function']);
  });

  it('a runtime started with no store of the caller starts its own; one given DYNAMODB_ENDPOINT does not', () => {
    // Built, not written out: this file's own text must not read as a call of them.
    const call = (name: string, args: string) => `await ${name}(${args});`;
    expect(startsOwnStore(call('startRuntime', 'dir, { CATALOGUE_FILE: out }'))).toBe(true);
    expect(startsOwnStore(call('startRuntime', "'/x', {\n  DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),\n}"))).toBe(false);
    expect(startsOwnStore(call('storeOfOwn', ''))).toBe(true);
    for (const helper of ['guardedStoreForFile', 'ownRuntime', 'isolatedRuntime', 'viewsRuntime'])
      expect([helper, startsOwnStore(call(helper, "'name'"))]).toEqual([helper, true]);
    expect(startsOwnStore(call('fetch', "'/api/v1/decks'"))).toBe(false);
  });

  it('the helpers that start one are derived from their text: a helper that comes to start one is found, and its callers', () => {
    // Built, not written out, as above.
    const helper = (name: string, callee: string, args = '') => `export async function ${name}() {\n  return ${callee}(${args});\n}\n`;
    const [jvm, runtime] = [['startDynamo', 'Local'].join(''), ['start', 'Runtime'].join('')];
    const found = startersOf([
      helper('plain', 'fetch', "'/x'"),
      helper('jvm', jvm, '8000'),
      helper('runtimeOfItsOwn', runtime, "'/d', { PORT: '1' }"),
      helper('runtimeOnAStore', runtime, "'/d', { DYNAMODB_ENDPOINT: e }"),
      helper('wrapsJvm', 'jvm'),
    ]);
    expect(found.sort()).toEqual(['jvm', 'runtimeOfItsOwn', jvm, 'wrapsJvm'].sort());
  });

  it('finds the files that do (those the shared store serves are not among them)', () => {
    const found = ownStoreFiles(['test/scale', 'test/infra', 'test/runtime/lifecycle.test.ts']);
    for (const file of ['test/runtime/local-runtime.test.ts', 'test/api/trending.test.ts', 'test/runtime/retries.test.ts'])
      expect(found).toContain(file);
    expect(found).not.toContain('test/docs/readme.test.ts');
    for (const file of found) expect([file, startsOwnStore(readFileSync(join(ROOT, file), 'utf8'))]).toEqual([file, true]);
  });
});
