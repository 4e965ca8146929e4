/**
 * `npm start`'s runtime: first start prints a demo key; data survives a restart; Ctrl-C stops Java too — sent
 * to the runtime alone, or to `npm start`'s whole process group as a terminal sends it (ten times, each right
 * after serving views: no Java left, every view stored); a runtime killed outright (SIGKILL) leaves its Java
 * behind, and the next start on the same data and ports stops it (its pid file) and serves (contract §11.4); with
 * DYNAMODB_IN_MEMORY=on, nothing of the store on disk and the same stop of a Java left behind.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_MAJOR } from '../../infra/node-version.ts';
import { code } from '../support/api.ts';
import { freePort, type Runtime, startRuntime } from '../support/runtime.ts';
import { workersRestingSince } from '../support/settle.ts';

const childrenOf = (pid: number): number[] => {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter(Boolean);
  } catch {
    return [];
  }
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('local runtime', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deck-library-runtime-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('start, create a deck with the demo key, stop, start again: the deck is still there', async () => {
    const first = await startRuntime(dir);
    const demo = first.demo;
    expect(demo).toBeDefined();
    if (!demo) return;
    const auth = { authorization: `Bearer ${demo.apiKey}`, 'content-type': 'application/json' };
    const decks = `${first.baseUrl}/api/v1/users/${demo.userId}/decks`;
    const created = await fetch(decks, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ deck_code: code(), guide: { system: 'Persisted' } }),
    });
    expect(created.status).toBe(201);
    const deck = ((await created.json()) as { data: { id: string } }).data;
    // A public deck read three times: the views stay pending in the runtime until a clean stop writes them.
    const shared = (await (
      await fetch(decks, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ deck_code: code('germany', 'italy'), guide: { system: 'Viewed' }, visibility: 'public' }),
      })
    ).json()) as { data: { share_slug: string } };
    for (let i = 0; i < 3; i++) await fetch(`${first.baseUrl}/api/v1/decks/${shared.data.share_slug}`);

    // The request id of the answer is in the structured log line of that request.
    const requestId = created.headers.get('x-request-id') as string;
    // The log line may reach this process a moment after the answer: wait for it (2 s at most).
    const logLine = () =>
      first
        .output()
        .split('\n')
        .find((l) => l.includes(requestId));
    for (let i = 0; i < 40 && !logLine(); i++) await new Promise((r) => setTimeout(r, 50));
    const line = logLine();
    expect(line && JSON.parse(line)).toMatchObject({ level: 'INFO', message: 'request', request_id: requestId, status: 201 });

    // It runs on the project's Node, so nothing (the AWS SDK included) warns about the Node version.
    expect(first.output()).toContain(`node v${NODE_MAJOR}.`);
    expect(first.output()).not.toMatch(/Warning/);

    const java = childrenOf(first.child.pid as number);
    expect(java.length).toBeGreaterThan(0);
    expect(await first.stop()).toBe(0);
    expect(java.filter(alive)).toEqual([]);
    // A first start is clean: no worker's poll of a fresh table's change stream fails (infra/local/streams.ts).
    expect(first.output()).not.toMatch(/polling the change stream failed/);

    const second = await startRuntime(dir);
    try {
      expect(second.demo).toBeUndefined();
      const read = await fetch(`${second.baseUrl}/api/v1/users/${demo.userId}/decks/${deck.id}`, { headers: auth });
      expect(read.status).toBe(200);
      // The clean stop wrote the pending views: this read is the fourth.
      const again = (await (await fetch(`${second.baseUrl}/api/v1/decks/${shared.data.share_slug}`)).json()) as { data: { views: number } };
      expect(again.data.views).toBe(4);
      expect(((await read.json()) as { data: unknown }).data).toEqual(deck);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 180_000);

  /** The DynamoDB Local a runtime started on a data directory (its pid file), while it runs. */
  const javaOf = (dataDir: string): number | undefined => {
    const file = join(dataDir, 'dynamodb-local.pid');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid : undefined;
  };
  const gone = async (pid: number, ms = 15_000) => {
    for (const until = Date.now() + ms; Date.now() < until && alive(pid); ) await new Promise((r) => setTimeout(r, 100));
    return !alive(pid);
  };
  /** A public deck of the demo account, and `n` reads of it (views). */
  const publicDeck = async (runtime: Runtime) => {
    const demo = runtime.demo as { userId: string; apiKey: string };
    const r = await fetch(`${runtime.baseUrl}/api/v1/users/${demo.userId}/decks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ deck_code: code('japan', 'usa'), guide: { system: 'Viewed' }, visibility: 'public' }),
    });
    expect(r.status).toBe(201);
    return ((await r.json()) as { data: { share_slug: string } }).data.share_slug;
  };
  const read = async (runtime: Runtime, slug: string) =>
    ((await (await fetch(`${runtime.baseUrl}/api/v1/decks/${slug}`)).json()) as { data: { views: number } }).data.views;

  it('killed outright (SIGKILL), it leaves Java running; the next start on the same data and ports stops that Java and serves', async () => {
    const data = mkdtempSync(join(tmpdir(), 'deck-library-killed-'));
    const ports = { PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()) };
    const first = await startRuntime(data, ports);
    const java = javaOf(data) as number;
    expect(childrenOf(first.child.pid as number)).toContain(java);
    first.child.kill('SIGKILL');
    await first.stop();
    // What a hard kill leaves: Java, holding the port and the data directory.
    expect(alive(java)).toBe(true);
    const second = await startRuntime(data, ports);
    try {
      expect(second.output()).toContain(`stopping the DynamoDB Local (pid ${java}) that an earlier start left running on ${data}`);
      expect(await gone(java)).toBe(true);
      expect((await fetch(`${second.baseUrl}/api/v1/cards/2B`)).status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
      rmSync(data, { recursive: true, force: true });
    }
    expect(alive(javaOf(data) ?? java)).toBe(false);
  }, 180_000);

  it('DYNAMODB_IN_MEMORY=on: Java keeps the tables in memory (no store file under DATA_DIR, nor a stream position or access log); killed outright, the next start on the same data and ports stops that Java and starts empty', async () => {
    const data = mkdtempSync(join(tmpdir(), 'deck-library-in-memory-'));
    const ports = { PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()), DYNAMODB_IN_MEMORY: 'on' };
    const first = await startRuntime(data, ports);
    const java = javaOf(data) as number;
    let second: Runtime | undefined;
    let stopped: number | null | undefined;
    try {
      expect(readFileSync(`/proc/${java}/cmdline`, 'utf8').split('\0')).toContain('-inMemory');
      const slug = await publicDeck(first);
      // A view: on disk, a line of the access log under DATA_DIR.
      const viewed = Date.now();
      expect(await read(first, slug)).toBeGreaterThan(0);
      // The stream workers at rest since: they read the deck's changes (on disk, their positions kept in a file).
      for (let i = 0; i < 100 && ((await workersRestingSince(first.baseUrl)) ?? 0) < viewed; i++)
        await new Promise((r) => setTimeout(r, 100));
      // Only the pid file and the stand-ins' files: nothing of the store, the streams or the views.
      expect(readdirSync(data).filter((f) => /\.db$|stream-checkpoint|access-log/.test(f))).toEqual([]);
      expect(first.output()).toContain('data in memory');
      first.child.kill('SIGKILL');
      await first.stop();
      expect(alive(java)).toBe(true);
      second = await startRuntime(data, ports);
      expect(second.output()).toContain(`stopping the DynamoDB Local (pid ${java}) that an earlier start left running on ${data}`);
      expect(await gone(java)).toBe(true);
      // Its store is new: a demo account made again, the deck of the first start gone.
      expect(second.demo).toBeDefined();
      expect((await fetch(`${second.baseUrl}/api/v1/decks/${slug}`)).status).toBe(404);
    } finally {
      first.child.kill('SIGKILL');
      stopped = await second?.stop();
      // Whatever Java a failed start left (its pid file), before the data goes.
      for (const left of [java, javaOf(data)]) if (left && alive(left)) process.kill(left, 'SIGKILL');
      rmSync(data, { recursive: true, force: true });
    }
    expect(stopped).toBe(0);
  }, 180_000);

  it("Ctrl-C as a terminal sends it (SIGINT to npm start's whole group), right after serving views, ten times: no Java left, every view stored", async () => {
    const data = mkdtempSync(join(tmpdir(), 'deck-library-ctrl-c-'));
    let slug = '';
    let served = 0;
    try {
      for (let round = 0; round < 10; round++) {
        const runtime = await startRuntime(data, {}, { npm: true });
        const java = javaOf(data) as number;
        expect([round, alive(java)]).toEqual([round, true]);
        if (round === 0) slug = await publicDeck(runtime);
        for (let i = 0; i < 5; i++) expect(await read(runtime, slug)).toBeGreaterThan(0);
        served += 5;
        await runtime.stop();
        // npm ends once its runtime has: Java is gone by then (a stop under a loaded machine is given a minute).
        // What the runtime said of its stop, should Java outlive it (seen once in a clean-clone CI: not explained yet).
        expect([round, await gone(java, 60_000)], runtime.output().slice(-4000)).toEqual([round, true]);
        expect([round, javaOf(data)]).toEqual([round, undefined]);
      }
      const last = await startRuntime(data);
      try {
        // Every view served before each stop is stored; this read is one more.
        expect(await read(last, slug)).toBe(served + 1);
      } finally {
        await last.stop();
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  }, 600_000);
});
