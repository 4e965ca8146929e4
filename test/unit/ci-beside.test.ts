/**
 * CI's jobs beside a command (.ci/beside.sh, sourced by .ci/run: the synth beside the scale tests): each at nice 19 in a session of its own (and that
 * session's scheduler autogroup at nice 19: else the nice value weighs nothing against the command's session), its output
 * printed after the command under a line saying how it ended, a failed one failing the whole; and when the command
 * fails (the script exits), every job's whole group is stopped — nothing is left running.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/shared.ts';

const BESIDE = join(PROJECT_ROOT, '.ci/beside.sh');

/** Runs `body` in bash after sourcing .ci/beside.sh with set -euo pipefail and the EXIT trap, as .ci/run does. */
const run = (body: string) =>
  spawnSync('bash', ['-c', `set -euo pipefail\nsource ${JSON.stringify(BESIDE)}\ntrap stop_beside EXIT\n${body}`], {
    encoding: 'utf8',
    timeout: 20_000,
  });

/** Whether a process runs (a zombie, ended and not yet reaped, does not). */
const running = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('jobs beside a command (.ci/beside.sh)', () => {
  it('run at nice 19, each in a session of its own; their output follows the command’s, each under its name and how it ended', () => {
    const r = run(
      [
        `start_beside first sh -c 'echo "nice $(ps -o ni= -p $$ | tr -d " ") session $(ps -o sid= -p $$ | tr -d " ") pid $$"; cat /proc/$$/autogroup 2>/dev/null || echo no autogroup'`,
        `start_beside second sh -c 'echo second said this'`,
        'echo the command ran',
        'wait_beside',
      ].join('\n'),
    );
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('the command ran');
    expect(lines[1]).toBe('--- first (beside): passed');
    const [, nice, session, pid] = /^nice (\d+) session (\d+) pid (\d+)$/.exec(lines[2] as string) ?? [];
    expect(nice).toBe('19');
    expect(session).toBe(pid);
    // Its session's autogroup niced too, where the kernel groups by session: a nice value weighs only within its autogroup.
    if (lines[3] !== 'no autogroup') expect(lines[3]).toMatch(/^\/autogroup-\d+ nice 19$/);
    expect(lines.slice(4)).toEqual(['--- second (beside): passed', 'second said this']);
  });

  it('a job that fails fails the whole, after every job’s output is printed', () => {
    const r = run(
      ["start_beside broken sh -c 'echo about to fail; exit 3'", "start_beside fine sh -c 'echo fine'", 'wait_beside'].join('\n'),
    );
    expect(r.status).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual(['--- broken (beside): failed (3)', 'about to fail', '--- fine (beside): passed', 'fine']);
  });

  it('when the command fails, each job is stopped with its whole group (a child of it included): nothing left running', () => {
    const r = run(
      [
        // A job whose own child outlives it unless its group is stopped; each prints its pid first.
        `start_beside long sh -c 'sleep 60 & echo "child $!"; echo "job $$"; wait'`,
        // Until the job has said both (a fixed sleep once ended before it had on a busy machine).
        `until grep -q '^job' "$beside_dir/0.log" 2>/dev/null; do sleep 0.05; done`,
        `cat "$beside_dir/0.log"`,
        'false # the command failing',
        'wait_beside',
      ].join('\n'),
    );
    expect(r.status).toBe(1);
    const child = Number(/child (\d+)/.exec(r.stdout)?.[1]);
    const job = Number(/job (\d+)/.exec(r.stdout)?.[1]);
    expect(child).toBeGreaterThan(0);
    expect(job).toBeGreaterThan(0);
    expect(r.stdout).not.toContain('(beside)');
    // Signals are delivered before kill returns; a moment for the two to end.
    const until = Date.now() + 2_000;
    while ((running(job) || running(child)) && Date.now() < until) spawnSync('sleep', ['0.05']);
    expect([running(job), running(child)]).toEqual([false, false]);
  });
});
