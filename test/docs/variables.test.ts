/**
 * What the docs say a newcomer can rely on, held to the code (contract §13.1): every variable the service's own sources
 * read from their environment (lib/, infra/local/, bin/: what `npm start`, `npx deckctl` and the functions read) is
 * named in docs/local.md's table "Every variable", and the table names none that nothing reads; every list of the
 * scopes the docs and `deckctl keys create` give names each scope there is; and deckctl names the store it could not
 * reach.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { SCOPES } from '#rules/scopes.ts';
import { ACCOUNTS, DECKS } from '#store/tables.ts';
import { deckctl } from '../support/deckctl.ts';
import { sources } from '../support/imports.ts';
import { freePort } from '../support/runtime.ts';
import { PROJECT_ROOT } from '../support/shared.ts';

/** The names a source reads (`process.env.X`, `env.X`, `env['X']`), not those it only sets (`env.X ??= …`, `env.X = …`). */
function variablesRead(source: string): Set<string> {
  const read = new Set<string>();
  for (const m of source.matchAll(/\benv(?:\.([A-Z_][A-Z0-9_]*)|\[['"]([A-Z_][A-Z0-9_]*)['"]\])(\s*(?:\?\?=|=(?!=)))?/g))
    if (!m[3]) read.add((m[1] ?? m[2]) as string);
  return read;
}

const table = () => {
  const doc = readFileSync(join(PROJECT_ROOT, 'docs/local.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Every variable'));
  return new Set(
    [...section.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) =>
      [...(m[1] as string).matchAll(/`([A-Z_][A-Z0-9_]*)`/g)].map((n) => n[1] as string),
    ),
  );
};

describe('every variable a command reads is in the docs', () => {
  const read = new Set([
    ...[...sources('lib', 'infra/local', 'bin')].flatMap(([, source]) => [...variablesRead(source)]),
    // A table's name is read by the name its declaration gives (tables.ts tableName: env[def.envVar]).
    ...[DECKS, ACCOUNTS].map((t) => t.envVar),
  ]);

  it('docs/local.md names every variable read, and none that nothing reads', () => {
    expect(read.size).toBeGreaterThan(30);
    const named = table();
    expect([...read].filter((v) => !named.has(v)).sort()).toEqual([]);
    expect([...named].filter((v) => !read.has(v)).sort()).toEqual([]);
  });

  it('finds what it is there for: a read, not a setting; a variable the table lacks', () => {
    expect([...variablesRead("const a = process.env.NEW_ONE ?? 1; env.SET_ONLY ??= '0'; env['BRACKETED']; env.X === 'y'")]).toEqual([
      'NEW_ONE',
      'BRACKETED',
      'X',
    ]);
    expect(table().has('S3_PORT')).toBe(true);
    expect(table().has('NEW_ONE')).toBe(false);
  });
});

describe('the scopes as the docs and deckctl give them', () => {
  it("docs/accounts.md's scope lists and its sample errors name every scope; deckctl keys create's help names every scope", async () => {
    const doc = readFileSync(join(PROJECT_ROOT, 'docs/accounts.md'), 'utf8');
    // Every line that lists account:delete among the scopes lists all of them (the list, a sample answer, an error).
    const lists = doc.split('\n').filter((l) => /decks:delete.*account:delete|not a scope/.test(l));
    expect(lists.length).toBeGreaterThanOrEqual(2);
    for (const [i, line] of lists.entries()) {
      const block = `${line} ${lists[i + 1] ?? ''} ${doc.split('\n')[doc.split('\n').indexOf(line) + 1] ?? ''}`;
      for (const scope of SCOPES) expect([line, block.includes(scope)]).toEqual([line, true]);
    }
    const help = await deckctl(['keys', 'create', '--help']);
    for (const scope of SCOPES) expect(help.stdout).toContain(scope);
  });
});

describe('deckctl names the store it could not reach', () => {
  it('bulk export with the bucket unreachable names the bucket, not the table store it reached', async () => {
    const port = await freePort();
    const run = await deckctl(['bulk', 'export'], { DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), S3_PORT: String(port), S3_ENDPOINT: '' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`cannot reach the bulk files' bucket at http://127.0.0.1:${port}`);
    expect(run.stderr).not.toContain(inject('dynamoEndpoint'));
  });

  it('a bucket that takes the connection and never answers is named within S3_TIMEOUT_MS; with the table store down too, still a message, no crash', async () => {
    const hole = createServer(() => undefined); // accepts, never answers
    await new Promise<void>((ok) => hole.listen(0, '127.0.0.1', ok));
    const port = (hole.address() as { port: number }).port;
    try {
      const stalled = await deckctl(['bulk', 'export'], {
        DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_TIMEOUT_MS: '1500',
      });
      expect([stalled.status, stalled.stderr.trim()]).toEqual([
        1,
        expect.stringContaining(`deckctl: cannot reach the bulk files' bucket at http://127.0.0.1:${port}`),
      ]);
    } finally {
      hole.closeAllConnections();
      hole.close();
    }
    const [bucketPort, storePort] = [await freePort(), await freePort()];
    const both = await deckctl(['bulk', 'export'], {
      DYNAMODB_ENDPOINT: `http://127.0.0.1:${storePort}`,
      S3_ENDPOINT: `http://127.0.0.1:${bucketPort}`,
    });
    expect(both.status).toBe(1);
    expect(both.stderr).toContain("cannot reach the bulk files' bucket");
    expect(both.stderr).not.toMatch(/Unhandled|\n\s+at /);
  });

  it('a table store endpoint that answers as something else (a web page) is named, not a deserialization error', async () => {
    const page = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not DynamoDB</html>'));
    await new Promise<void>((ok) => page.listen(0, '127.0.0.1', ok));
    const at = `http://127.0.0.1:${(page.address() as { port: number }).port}`;
    try {
      const run = await deckctl(['users', 'create', '--display-name', 'Someone'], { DYNAMODB_ENDPOINT: at });
      expect([run.status, run.stderr.trim()]).toEqual([
        1,
        `deckctl: the store at ${at} did not answer as DynamoDB does (is DYNAMODB_ENDPOINT the table store's? npm start prints it)`,
      ]);
    } finally {
      page.closeAllConnections();
      page.close();
    }
  });

  it('an endpoint that is not a URL is named as the setting it is', async () => {
    const s3 = await deckctl(['bulk', 'export'], { DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), S3_ENDPOINT: '127.0.0.1:4704' });
    expect([s3.status, s3.stderr.trim()]).toEqual([1, expect.stringContaining('S3_ENDPOINT is not a URL: 127.0.0.1:4704')]);
    const dynamo = await deckctl(['bulk', 'export'], { DYNAMODB_ENDPOINT: '127.0.0.1:4703' });
    expect([dynamo.status, dynamo.stderr.trim()]).toEqual([1, expect.stringContaining('DYNAMODB_ENDPOINT is not a URL: 127.0.0.1:4703')]);
    expect(dynamo.stderr).not.toMatch(/Unhandled|\n\s+at /);
  });
});
