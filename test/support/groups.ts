/**
 * How vitest.config.ts groups and orders the test files: a file that asserts a wall-clock bound says so in its doc
 * comment (" * Runs alone: <why>") and runs with no other file beside it; every other file runs side by side, whatever
 * it starts (issue 59 measured why: vitest.config.ts says it). On a clean clone, where vitest has no durations of an
 * earlier run to put the longest first, the files that start a DynamoDB Local of their own — the long ones: a JVM, a
 * runtime and a library of their own to fill — go first, found by what they call (a list kept by hand named a renamed
 * file and missed four: issue 53; the starters are derived too: issue 59).
 */
import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { PROJECT_ROOT } from './shared.ts';

/** Where the helpers a test file may call are (test/support's, and infra/local/dynamodb.ts's startDynamoLocal). */
const HELPERS = ['test/support/*.ts', 'infra/local/dynamodb.ts'];

/**
 * The helpers that start a DynamoDB Local, derived from their text: startDynamoLocal, and every exported function of
 * HELPERS whose body calls one of them or a startRuntime naming no DYNAMODB_ENDPOINT (then the runtime starts Java
 * itself) — so a helper that comes to start one is found without a list to keep (issue 59).
 */
export function startersOf(texts: readonly string[]): string[] {
  const bodies = new Map<string, string>();
  for (const text of texts)
    for (const m of text.matchAll(/^export (?:async )?function (\w+)\(([\s\S]*?)^\}/gm)) bodies.set(m[1] as string, m[2] as string);
  const found = ['startDynamoLocal'];
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, body] of bodies)
      if (!found.includes(name) && startsStore(body, found)) {
        found.push(name);
        grew = true;
      }
  }
  return found;
}

export const STORE_STARTERS: readonly string[] = startersOf(
  HELPERS.flatMap((pattern) => globSync(pattern, { cwd: PROJECT_ROOT })).map((file) => readFileSync(join(PROJECT_ROOT, file), 'utf8')),
);

/** Each startRuntime call's arguments in `code`, to its closing parenthesis. */
function runtimeCalls(code: string): string[] {
  return [...code.matchAll(/\bstartRuntime\(/g)].map((m) => {
    const from = (m.index ?? 0) + m[0].length;
    let depth = 1;
    let at = from;
    for (; at < code.length && depth > 0; at++) depth += code[at] === '(' ? 1 : code[at] === ')' ? -1 : 0;
    return code.slice(from, at);
  });
}

/** Whether `code` calls one of `starters` or a startRuntime naming no DYNAMODB_ENDPOINT. */
function startsStore(code: string, starters: readonly string[]): boolean {
  const starts = new RegExp(`\\b(?:${starters.join('|')})\\(`);
  return starts.test(code) || runtimeCalls(code).some((args) => !args.includes('DYNAMODB_ENDPOINT'));
}

/** Whether a test file's code starts a DynamoDB Local of its own. */
export const startsOwnStore = (code: string): boolean => startsStore(code, STORE_STARTERS);

/** The test files (project-relative) whose code `holds`, but those under `except` (files or folders). */
const testFilesWhere = (except: readonly string[], holds: (code: string) => boolean): string[] =>
  globSync('test/**/*.test.ts')
    .filter((file) => !except.some((e) => file === e || file.startsWith(`${e}/`)))
    .filter((file) => holds(readFileSync(file, 'utf8')))
    .sort();

/** The test files (project-relative) that start one, but those under `except` (files or folders). */
export const ownStoreFiles = (except: readonly string[]): string[] => testFilesWhere(except, startsOwnStore);

/** What a test file's doc comment says when it must run with no other beside it (a wall-clock bound it asserts). */
export const RUNS_ALONE = /^ \* Runs alone: /m;

/** The test files (project-relative) that say they run alone, but those under `except`. */
export const aloneFiles = (except: readonly string[]): string[] => testFilesWhere(except, (code) => RUNS_ALONE.test(code));

/**
 * vitest's order (its BaseSequencer: groups, then the longest of an earlier run first, or on a clean clone the largest
 * file first), with the files that start a store of their own first where no earlier run's durations are known: by
 * size alone, a clean clone's CI ran them spread through the run and the last of them ran on alone at its end (630 s
 * of vitest against 584 s longest first, 2026-11-28).
 */
export class StoresFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    if (files.every((file) => this.ctx.cache.getTestSpecificationResult(file))) return sorted;
    const first = new Set(ownStoreFiles([]).map((file) => join(PROJECT_ROOT, file)));
    const starts = (file: TestSpecification) => first.has(file.moduleId);
    return [...sorted.filter(starts), ...sorted.filter((file) => !starts(file))];
  }
}
