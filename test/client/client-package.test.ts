/**
 * The typed client as a package (clients/typescript, contract §13.6): its generated sources are those the document
 * makes now (a drift is red), what a bundler ships of it is at most 10 kB gzipped, a call naming a path or a parameter
 * the document lacks does not compile, its client tests call nothing through a cast, and it builds (ESM and
 * declarations) into a module Node imports.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bundled } from '../../clients/typescript/build.ts';
import { CLIENT_SOURCE_DIR, clientSources } from '../../scripts/write-client.ts';
import { CLIENT_PACKAGE, readmeBot } from '../support/client.ts';
import { PROJECT_ROOT } from '../support/shared.ts';

const PACKAGE = CLIENT_PACKAGE;
const TSC = join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
/** The budget of contract §13.6: what a bundler ships of the client, its dependency included, gzipped. */
const GZIPPED_BUDGET = 10 * 1024;

describe('the typed client package', () => {
  it('holds the sources the document generates now (npm run client:generate writes them)', async () => {
    for (const [name, text] of Object.entries(await clientSources())) {
      expect(readFileSync(join(CLIENT_SOURCE_DIR, name), 'utf8'), `clients/typescript/src/${name} is stale: npm run client:generate`).toBe(
        text,
      );
    }
  });

  it('ships at most 10 kB gzipped, openapi-fetch included, minified as a bundler ships it', async () => {
    const code = await bundled();
    const gzipped = gzipSync(code, { level: 9 }).length;
    console.log(`client bundle: ${code.length} bytes minified, ${gzipped} gzipped (budget ${GZIPPED_BUDGET})`);
    expect(gzipped).toBeLessThanOrEqual(GZIPPED_BUDGET);
    // The dependency is in it: openapi-fetch's own error text.
    expect(Buffer.from(code).toString()).toContain('must return new Request()');
  });

  it('does not compile a call that names a path, a parameter or a body field the document lacks', () => {
    const dir = join(PACKAGE, '.type-check');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const lines = [
      "import { createClient } from '../src/index.ts';",
      "const api = createClient({ baseUrl: 'http://127.0.0.1:1' });",
      "const user_id = '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f';",
      "export const fine = [api.GET('/api/v1/decks', { params: { query: { tag: 'x', limit: 5 } } }), api.GET('/api/v1/users/{user_id}/decks', { params: { path: { user_id } } })];",
      "export const noSuchPath = api.GET('/api/v1/deckz', {});",
      "export const noSuchQuery = api.GET('/api/v1/decks', { params: { query: { colour: 'red' } } });",
      "export const missingPath = api.GET('/api/v1/users/{user_id}/decks', { params: { path: {} } });",
      "export const wrongMethod = api.DELETE('/api/v1/decks', {});",
      "export const wrongBodyType = api.POST('/api/v1/users/{user_id}/decks', { params: { path: { user_id } }, body: { deck_code: 42, guide: { system: 'y' } } });",
      "export const missingBodyField = api.POST('/api/v1/users/{user_id}/decks', { params: { path: { user_id } }, body: { guide: { system: 'y' } } });",
      "export const wrongType = api.GET('/api/v1/decks', { params: { query: { limit: 'five' } } });",
      "export const notPaged = api.paginate('/api/v1/languages');",
      "export const notPagedImage = api.paginate('/api/v1/codes/{code}/image.png', { params: { path: { code: 'x' } } });",
      "export const notPagedPage = api.paginate('/c/{code}', { params: { path: { code: 'x' } } });",
      "export const unknownBesideKnown = api.GET('/api/v1/decks', { params: { query: { limit: 10, main_fction: 'germany' } } });",
      "export const unknownPathBesideKnown = api.GET('/api/v1/users/{user_id}/decks', { params: { path: { user_id, colour: 'red' } } });",
      "export const queryOnNone = api.GET('/api/v1/languages', { params: { query: { foo: 1 } } });",
      "export const bodyFieldBesideKnown = api.POST('/api/v1/users/{user_id}/decks', { params: { path: { user_id } }, body: { deck_code: 'x', guide: { system: 'y' }, colour: 'red' } });",
      "export const fineText = api.GET('/d/{share_slug}', { params: { path: { share_slug: 'a' } }, parseAs: 'text' }).then((r) => r.data?.toUpperCase());",
      "export const fineDeckText = api.POST('/api/v1/users/{user_id}/decks', { params: { path: { user_id } }, body: { deck_text: 'x', guide: { system: 'y' } } });",
    ];
    writeFileSync(join(dir, 'calls.ts'), `${lines.join('\n')}\n`);
    writeFileSync(join(dir, 'readme.ts'), readmeBot());
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          module: 'preserve',
          moduleResolution: 'bundler',
          allowImportingTsExtensions: true,
          noEmit: true,
          strict: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['calls.ts', 'readme.ts'],
      }),
    );
    let out = '';
    try {
      execFileSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8' });
    } catch (e) {
      out = String((e as { stdout: string }).stdout);
    }
    rmSync(dir, { recursive: true, force: true });
    const failing = new Set(
      [...out.matchAll(/calls\.ts\((\d+),\d+\): error/g)].map((m) => lines[Number(m[1]) - 1]?.match(/export const (\w+)/)?.[1]),
    );
    expect(out, 'the client source itself compiles').not.toMatch(/src\/index\.ts/);
    expect(out, "the README's bot compiles").not.toMatch(/readme\.ts/);
    expect([...failing].sort()).toEqual([
      'bodyFieldBesideKnown',
      'missingBodyField',
      'missingPath',
      'noSuchPath',
      'noSuchQuery',
      'notPaged',
      'notPagedImage',
      'notPagedPage',
      'queryOnNone',
      'unknownBesideKnown',
      'unknownPathBesideKnown',
      'wrongBodyType',
      'wrongMethod',
      'wrongType',
    ]);
  });

  it('its tests call the API through the generated types alone: no cast, no any, no ts directive', () => {
    const code = readFileSync(join(PROJECT_ROOT, 'test/client/client.test.ts'), 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*|\/\*\*|import )/.test(line))
      .join('\n')
      // Strings say what they like ('as a bot would'): only code is read.
      .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
    expect(code.match(/\bas\s+(?!const\b)[A-Za-z{[(]|:\s*any\b|<any>|@ts-/g) ?? []).toEqual([]);
  });

  it('builds dist/ (ESM importing only openapi-fetch, and its declarations), which Node imports', async () => {
    execFileSync(process.execPath, [join(PACKAGE, 'build.ts')], { stdio: 'pipe' });
    const built = readFileSync(join(PACKAGE, 'dist/index.js'), 'utf8');
    expect([...built.matchAll(/^import .* from "([^"]+)"/gm)].map((m) => m[1])).toEqual(['openapi-fetch']);
    for (const d of ['index.d.ts', 'operations.d.ts', 'schema.d.ts'])
      expect(readFileSync(join(PACKAGE, 'dist', d), 'utf8').length).toBeGreaterThan(100);
    const module: { createClient: (o: { baseUrl: string }) => { GET: unknown; paginate: unknown } } = await import(
      join(PACKAGE, 'dist/index.js')
    );
    const client = module.createClient({ baseUrl: 'http://127.0.0.1:1' });
    expect([typeof client.GET, typeof client.paginate]).toEqual(['function', 'function']);
  });
});
