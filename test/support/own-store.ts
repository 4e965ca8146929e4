/**
 * The test files that start a DynamoDB Local of their own, derived from what each calls (vitest.config.ts runs them one
 * at a time, alone: a JVM starting beside another's burst starved that store): a call of one of STORE_STARTERS, or a
 * startRuntime whose call names no DYNAMODB_ENDPOINT (then the runtime starts Java itself). A list kept by hand named
 * a renamed file and missed four (issue 53); the starters are derived too (issue 59). A file that needs only an empty
 * library takes tables of its own in the run's store (own-tables.ts) and runs with the others.
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
export function startersOf(texts: readonly string[], seeds: readonly string[] = ['startDynamoLocal']): string[] {
  const bodies = new Map<string, string>();
  for (const text of texts)
    for (const m of text.matchAll(/^export (?:async )?function (\w+)\(([\s\S]*?)^\}/gm)) bodies.set(m[1] as string, m[2] as string);
  const found = [...seeds];
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

const HELPER_TEXTS = HELPERS.flatMap((pattern) => globSync(pattern, { cwd: PROJECT_ROOT })).map((file) =>
  readFileSync(join(PROJECT_ROOT, file), 'utf8'),
);
export const STORE_STARTERS: readonly string[] = startersOf(HELPER_TEXTS);
/**
 * And the helpers that give a file a library of its own (tables of its own in its test worker's store: own-tables.ts
 * tablesOfOwn), or call one that does. Such a file runs alone too: beside another file's, one filling its library
 * (hundreds of decks over HTTP) passed its requests' 8 s budget (503s), and one whose 20,000 decks were being
 * deleted slowed the next file on that store twentyfold (a run of 2026-11-28: 7.8 s → 169 s).
 */
export const LIBRARY_STARTERS: readonly string[] = startersOf(HELPER_TEXTS, ['startDynamoLocal', 'tablesOfOwn']);

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

/** Whether a test file's code starts a DynamoDB Local of its own, or takes a library of its own. */
export const startsOwnStore = (code: string): boolean => startsStore(code, LIBRARY_STARTERS);

/** The test files (project-relative) that start one, but those under `except` (files or folders). */
export const ownStoreFiles = (except: readonly string[]): string[] =>
  globSync('test/**/*.test.ts')
    .filter((file) => !except.some((e) => file === e || file.startsWith(`${e}/`)))
    .filter((file) => startsOwnStore(readFileSync(file, 'utf8')))
    .sort();

/** What a test file's doc comment says when it must run with no other beside it (a wall-clock bound it asserts). */
export const RUNS_ALONE = /^ \* Runs alone: /m;

/** The test files (project-relative) that say they run alone, but those under `except`. */
export const aloneFiles = (except: readonly string[]): string[] =>
  globSync('test/**/*.test.ts')
    .filter((file) => !except.some((e) => file === e || file.startsWith(`${e}/`)))
    .filter((file) => RUNS_ALONE.test(readFileSync(file, 'utf8')))
    .sort();
