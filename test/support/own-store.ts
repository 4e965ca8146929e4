/**
 * The test files that start a DynamoDB Local of their own, derived from what each calls (vitest.config.ts runs them one
 * at a time, alone: a JVM starting beside another's burst starved that store): a call of one of STORE_STARTERS, or a
 * startRuntime whose call names no DYNAMODB_ENDPOINT (then the runtime starts Java itself). A list kept by hand named
 * a renamed file and missed four (issue 53). test/unit/own-store.test.ts holds each starter to a function that exists.
 */
import { globSync, readFileSync } from 'node:fs';

/** The helpers that start a DynamoDB Local (test/support/runtime.ts, isolated.ts, store.ts, views.ts; infra/local/dynamodb.ts). */
export const STORE_STARTERS = [
  'ownRuntime',
  'isolatedRuntime',
  'guardedStoreForFile',
  'storeOfOwn',
  'startDynamoLocal',
  'viewsRuntime',
] as const;

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

/** Whether a test file's code starts a DynamoDB Local of its own. */
export function startsOwnStore(code: string): boolean {
  const starts = new RegExp(`\\b(?:${STORE_STARTERS.join('|')})\\(`);
  return starts.test(code) || runtimeCalls(code).some((args) => !args.includes('DYNAMODB_ENDPOINT'));
}

/** The test files (project-relative) that start one, but those under `except` (files or folders). */
export const ownStoreFiles = (except: readonly string[]): string[] =>
  globSync('test/**/*.test.ts')
    .filter((file) => !except.some((e) => file === e || file.startsWith(`${e}/`)))
    .filter((file) => startsOwnStore(readFileSync(file, 'utf8')))
    .sort();
