/**
 * The local gateway as a hostile client meets it, on a runtime of its own that uses the run's store
 * through DYNAMODB_ENDPOINT (contract §8.7: no DynamoDB Local of its own): a body over the limit is
 * refused while it is still arriving, requests Node's HTTP parser refuses get the envelope with an
 * X-Request-Id, and under concurrency every access-log line carries its own request's identity.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Runtime, startRuntime } from '../support/runtime.ts';

let runtime: Runtime;
beforeAll(async () => {
  // On the run's store, which the run's runtime already follows: no second worker.
  runtime = await startRuntime('/nonexistent-data-dir', { DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), STREAM_WORKERS: 'off' });
}, 120_000);
afterAll(async () => {
  await runtime?.stop();
});

const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
const port = () => Number(new URL(runtime.baseUrl).port);

describe('DYNAMODB_ENDPOINT (§8.7)', () => {
  it('uses that store and starts no DynamoDB Local of its own', async () => {
    expect(runtime.output()).toContain(`the store at ${inject('dynamoEndpoint')} (DYNAMODB_ENDPOINT)`);
    let children = '';
    try {
      children = execFileSync('ps', ['-o', 'comm=', '--ppid', String(runtime.child.pid)], { encoding: 'utf8' });
    } catch {
      children = '';
    }
    expect(children).not.toMatch(/java/);
    expect((await fetch(`${runtime.baseUrl}/api/v1/decks?limit=1`)).status).toBe(200);
  });
});

describe('a body over 128 KiB', () => {
  it('to an unauthenticated GET: 413 in the envelope while it is still arriving; memory stays flat', async () => {
    const pid = runtime.child.pid as number;
    const before = rssKiB(pid);
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    let sent = 0;
    // A client stops sending once it has its answer.
    let answered = false;
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: port(), path: '/api/v1/decks', method: 'GET', headers: { 'transfer-encoding': 'chunked' } },
        (res) => {
          answered = true;
          let body = '';
          res.on('data', (d) => (body += d));
          const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
          res.on('end', done);
          res.on('close', done);
        },
      );
      req.on('error', () => undefined);
      const pump = () => {
        // Up to 200 MiB, unless the answer comes first.
        while (sent < 200 * 1024 * 1024 && !req.destroyed && !answered) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
      setTimeout(() => reject(new Error(`no answer after ${sent} bytes: ${runtime.output().slice(-600)}`)), 20_000);
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({
      error: { code: 'payload_too_large' },
      meta: { request_id: answer.headers['x-request-id'] },
    });
    expect(sent).toBeLessThan(200 * 1024 * 1024);
    expect(rssKiB(pid) - before).toBeLessThan(64 * 1024);
  }, 30_000);

  it('a declared Content-Length over the limit is refused before any of it is read', async () => {
    const r = await new Promise<number>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port: port(), path: '/api/v1/decks', method: 'POST', headers: { 'content-length': 300 * 1024 * 1024 } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', () => undefined);
      req.write('{');
    });
    expect(r).toBe(413);
  });
});

/** Sends raw bytes and reads what comes back until the socket closes. */
const raw = (bytes: string | Buffer) =>
  new Promise<string>((resolve) => {
    const socket = connect(port(), '127.0.0.1');
    let out = '';
    socket.on('data', (d) => (out += d));
    socket.on('close', () => resolve(out));
    socket.on('error', () => resolve(out));
    socket.write(bytes);
  });

describe('requests the HTTP parser refuses', () => {
  it.each([
    ['a bad method', 'BREW /api/v1/decks HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['a NUL in a header', 'GET /api/v1/decks HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n', 400],
    ['16 KB of headers', `GET /api/v1/decks HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['not HTTP at all', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03', 400],
  ])('%s: the envelope with an X-Request-Id', async (_name, bytes, status) => {
    const answer = await raw(bytes);
    const [head, body] = answer.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    const id = /x-request-id: (\S+)/i.exec(head)?.[1];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(body)).toMatchObject({
      error: { code: expect.any(String), message: expect.any(String) },
      meta: { api_version: 'v1', request_id: id },
    });
  });
});

describe('concurrency', () => {
  it("every access-log line carries its own request's function name and invocation id", async () => {
    const routes = [
      ['/api/v1/cards/2B', 'readCard'],
      ['/api/v1/decks?limit=1', 'searchDecks'],
      ['/api/v1/nowhere', 'notFound'],
      ['/api/v1/decks/AAAAAAAAAAAA', 'readSharedDeck'],
      ['/api/v1/cards?limit=2', 'listCards'],
    ] as const;
    const sent = await Promise.all(
      Array.from({ length: 250 }, async (_, i) => {
        const [path, name] = routes[i % routes.length] as (typeof routes)[number];
        const res = await fetch(`${runtime.baseUrl}${path}`);
        await res.arrayBuffer();
        return { id: res.headers.get('x-request-id') as string, name };
      }),
    );
    const expected = new Map(sent.map((s) => [s.id, s.name]));
    const lines = () =>
      runtime
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { message: string; request_id: string; function_name: string; function_request_id: string })
        .filter((l) => l.message === 'request' && expected.has(l.request_id));
    for (let i = 0; i < 40 && lines().length < sent.length; i++) await new Promise((r) => setTimeout(r, 50));
    const access = lines();
    expect(access).toHaveLength(sent.length);
    for (const line of access)
      expect([line.request_id, line.function_name]).toEqual([line.request_id, `deck-library-${expected.get(line.request_id)}`]);
    expect(new Set(access.map((l) => l.function_request_id)).size).toBe(sent.length);
  }, 60_000);
});

describe('metrics', () => {
  it('each answer emits one Requests metric of its status class, with no other dimension (embedded metric format on stdout)', async () => {
    const emf = (status: string) =>
      runtime
        .output()
        .split('\n')
        .filter((l) => l.includes('"CloudWatchMetrics"'))
        .map(
          (l) =>
            JSON.parse(l) as Record<string, unknown> & { _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] } },
        )
        .filter((l) => l.status_class === status && 'Requests' in l);
    const before = [emf('2xx').length, emf('4xx').length];
    await (await fetch(`${runtime.baseUrl}/api/v1/cards/2B`)).arrayBuffer();
    await (await fetch(`${runtime.baseUrl}/api/v1/cards/2B`)).arrayBuffer();
    await (await fetch(`${runtime.baseUrl}/api/v1/nowhere`)).arrayBuffer();
    for (let i = 0; i < 40 && emf('4xx').length <= (before[1] as number); i++) await new Promise((r) => setTimeout(r, 50));
    const ok = emf('2xx');
    expect([ok.length, emf('4xx').length]).toEqual([(before[0] as number) + 2, (before[1] as number) + 1]);
    expect(ok.at(-1)).toMatchObject({
      _aws: { CloudWatchMetrics: [{ Namespace: 'DeckLibrary', Dimensions: [['service', 'status_class']] }] },
      Requests: 1,
    });
    // No route on a metric line: each route would be a custom metric of its own (lib/metrics.ts).
    expect(ok.at(-1)).not.toHaveProperty('route');
  });
});

describe('start-up', () => {
  it('npm start says plainly when DYNAMODB_PORT is taken, and stops', async () => {
    const taken = createServer();
    await new Promise<void>((ok) => taken.listen(0, '127.0.0.1', ok));
    const port = (taken.address() as { port: number }).port;
    try {
      const failed = await startRuntime(mkdtempSync(join(tmpdir(), 'deck-library-port-')), { DYNAMODB_PORT: String(port) }).then(
        () => '',
        (e: Error) => e.message,
      );
      expect(failed).toContain(`could not start: port ${port} is taken (DYNAMODB_PORT): stop what uses it, or set DYNAMODB_PORT`);
    } finally {
      taken.close();
    }
  });

  it('npm start says plainly when PORT is taken, and stops', async () => {
    const taken = createServer();
    await new Promise<void>((ok) => taken.listen(0, '127.0.0.1', ok));
    const port = (taken.address() as { port: number }).port;
    try {
      const failed = await startRuntime('/nonexistent-data-dir', { DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), PORT: String(port) }).then(
        () => '',
        (e: Error) => e.message,
      );
      expect(failed).toContain(`could not start: port ${port} is taken (PORT): stop what uses it, or set PORT`);
    } finally {
      taken.close();
    }
  });
});
