/**
 * The test files that start a DynamoDB Local of their own, derived from what each calls (vitest.config.ts runs them one
 * at a time, alone: a JVM starting beside another's burst starved that store): a call of one of STORE_STARTERS, or a
 * startRuntime whose call names no DYNAMODB_ENDPOINT (then the runtime starts Java itself). A list kept by hand named
 * a renamed file and missed four (issue 53); the starters are derived too (issue 59).
 */
import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
