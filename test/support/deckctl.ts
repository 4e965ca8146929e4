/** Runs `deckctl` as a user would (bin/deckctl.js in a new Node process): status, stdout, stderr. */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from './shared.ts';

export async function deckctl(args: string[], env: Record<string, string | undefined> = {}) {
  const full = { ...process.env, ...env } as NodeJS.ProcessEnv;
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [resolve(PROJECT_ROOT, 'bin/deckctl.js'), ...args], {
      env: full,
    });
    return { status: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { status: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}
