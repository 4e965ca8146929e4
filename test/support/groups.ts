/**
 * How vitest.config.ts groups the test files: a file that asserts a wall-clock bound says so in its doc comment
 * (" * Runs alone: <why>") and runs with no other file beside it; every other file runs two at a time, whatever it
 * starts (a DynamoDB Local of its own included: issue 59 measured why, vitest.config.ts says it).
 */
import { globSync, readFileSync } from 'node:fs';

/** What a test file's doc comment says when it must run with no other beside it (a wall-clock bound it asserts). */
export const RUNS_ALONE = /^ \* Runs alone: /m;

/** The test files (project-relative) that say they run alone, but those under `except` (files or folders). */
export const aloneFiles = (except: readonly string[]): string[] =>
  globSync('test/**/*.test.ts')
    .filter((file) => !except.some((e) => file === e || file.startsWith(`${e}/`)))
    .filter((file) => RUNS_ALONE.test(readFileSync(file, 'utf8')))
    .sort();
