/** `npm start`'s runtime: first start prints a demo key; data survives a restart; Ctrl-C stops Java too. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_MAJOR } from '../../infra/node-version.ts';
import { code } from '../support/api.ts';
import { startRuntime } from '../support/runtime.ts';

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
});
