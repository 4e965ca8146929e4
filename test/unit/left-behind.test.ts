/**
 * What a start stops of a DynamoDB Local an earlier start left running on its data directory (infra/local/dynamodb.ts
 * stopLeftBehind), found by the pid file there: a Java whose tables were in memory (DYNAMODB_IN_MEMORY=on) by
 * `-inMemory` and the file's port on its command line, and only the process that file names — not one given the same
 * pid since (its start time differs), nor one on another port. Stand-ins for Java here: Node processes whose command
 * lines read as DynamoDB Local's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stopLeftBehind } from '../../infra/local/dynamodb.ts';

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** A process whose command line is an in-memory DynamoDB Local's on `port`, and its start time (/proc). */
async function inMemoryJava(port: number): Promise<{ pid: number; startedAt: string; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', 'DynamoDBLocal.jar', '-inMemory', '-port', String(port)]);
  started.push(child);
  const exited = new Promise((r) => child.once('exit', r));
  const pid = child.pid as number;
  await new Promise((r) => setTimeout(r, 100));
  const startedAt = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19] as string;
  return { pid, startedAt, exited };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a DynamoDB Local left behind, its tables in memory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deck-library-left-behind-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const pidFile = (saved: object) => writeFileSync(join(dir, 'dynamodb-local.pid'), JSON.stringify({ dataDir: dir, ...saved }));

  it('the process the pid file names (its port, its start time) is stopped, with a line naming it', async () => {
    const java = await inMemoryJava(18_123);
    pidFile({ pid: java.pid, port: 18_123, started: java.startedAt });
    const lines: string[] = [];
    await stopLeftBehind(dir, (line) => lines.push(line));
    await java.exited;
    expect(alive(java.pid)).toBe(false);
    expect(lines).toEqual([`stopping the DynamoDB Local (pid ${java.pid}) that an earlier start left running on ${dir}`]);
  });

  it('one the system gave the same pid since (another start time), or one on another port, is left alone', async () => {
    const java = await inMemoryJava(18_124);
    for (const saved of [
      { pid: java.pid, port: 18_124, started: String(Number(java.startedAt) - 1) },
      { pid: java.pid, port: 1_812, started: java.startedAt },
      { pid: java.pid, port: 181_240, started: java.startedAt },
    ]) {
      pidFile(saved);
      const lines: string[] = [];
      await stopLeftBehind(dir, (line) => lines.push(line));
      expect(lines).toEqual([]);
      expect(alive(java.pid)).toBe(true);
    }
  });
});
