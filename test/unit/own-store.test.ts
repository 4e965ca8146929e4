/**
 * The files that start a DynamoDB Local of their own are found by what they call (test/support/own-store.ts): each
 * helper it looks for exists and starts one, so a renamed helper cannot leave its files running beside others.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as dynamodb from '../../infra/local/dynamodb.ts';
import * as isolated from '../support/isolated.ts';
import { aloneFiles, ownStoreFiles, RUNS_ALONE, STORE_STARTERS, startersOf, startsOwnStore } from '../support/own-store.ts';
import * as runtime from '../support/runtime.ts';
import * as store from '../support/store.ts';
import * as views from '../support/views.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('the test files with a store of their own', () => {
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

  it('a file that says it runs alone (a wall-clock bound it asserts) is found by its doc comment', () => {
    expect(aloneFiles(['test/scale', 'test/infra'])).toContain('test/runtime/faults.test.ts');
    expect(RUNS_ALONE.test('/**\n * Runs alone: its bound.\n */')).toBe(true);
    expect(RUNS_ALONE.test('/**\n * It runs alone sometimes.\n */')).toBe(false);
  });
});
