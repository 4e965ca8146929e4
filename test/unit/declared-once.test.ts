/**
 * What is declared once stays so (issue 59): cache lifetimes (lib/routes/cache-lifetimes.ts) — every route the edge
 * keeps names its lifetime beside `edge: 'cached'`, and no other source spells one (a Cache-Control's max-age,
 * immutable or stale-while-revalidate); and a word of the published document keeps its one meaning.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES, type Route } from '#routes';
import { LIFETIMES } from '#routes/cache-lifetimes.ts';

const ROOT = join(import.meta.dirname, '../..');
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });

describe('cache lifetimes', () => {
  it('every route the edge keeps declares its lifetime, one of those declared', () => {
    const cached = (ROUTES as readonly Route[]).filter((r) => r.edge === 'cached');
    expect(cached.length).toBeGreaterThan(10);
    expect(cached.filter((r) => r.cache === undefined).map((r) => r.name)).toEqual([]);
    for (const r of ROUTES as readonly Route[]) if (r.cache) expect(Object.values(LIFETIMES), r.name).toContain(r.cache);
  });

  it('no source of the service spells a lifetime but their declaration', () => {
    const spelled = [...sources(join(ROOT, 'lib')), ...sources(join(ROOT, 'functions')), ...sources(join(ROOT, 'infra'))]
      .filter((file) => !file.endsWith('cache-lifetimes.ts'))
      .filter((file) => /max-age=\d|stale-while-revalidate=\d|\bimmutable'/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(spelled).toEqual([]);
  });
});

describe('words of the published document (docs/layout.md)', () => {
  it('"scope" is an API key’s scope only: never a pool of the figures', async () => {
    const { openApiDocument } = await import('#docs/openapi.ts');
    const text = JSON.stringify(openApiDocument());
    const uses = [...text.matchAll(/[^.]{0,60}\bscopes?\b[^.]{0,60}/g)].map((m) => m[0]);
    expect(uses.length).toBeGreaterThan(0);
    expect(
      uses.filter(
        (u) =>
          !/key|scopes"|collection:read|x-required-scope|x-optional-scope|"scopes|insufficient_scope|:(read|write|delete|manage)/.test(u),
      ),
    ).toEqual([]);
  });
});
