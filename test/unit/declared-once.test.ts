/**
 * What is declared once stays so (issue 59): cache lifetimes (lib/routes/cache-lifetimes.ts) — every route the edge
 * keeps names its lifetime beside `edge: 'cached'`, and no other source spells one (a Cache-Control's max-age,
 * immutable or stale-while-revalidate); and a word of the published document keeps its one meaning.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES, type Route } from '#routes';
import { LIFETIMES } from '#routes/cache-lifetimes.ts';
import { VIEWS_WINDOW_SECONDS } from '#routes/workers.ts';
import { sources } from '../support/imports.ts';

describe('cache lifetimes', () => {
  it('every route the edge keeps declares its lifetime, one of those declared', () => {
    const cached = (ROUTES as readonly Route[]).filter((r) => r.edge === 'cached');
    expect(cached.length).toBeGreaterThan(10);
    expect(cached.filter((r) => r.cache === undefined).map((r) => r.name)).toEqual([]);
    for (const r of ROUTES as readonly Route[]) if (r.cache) expect(Object.values(LIFETIMES), r.name).toContain(r.cache);
  });

  it('an answer the edge keeps that names decks lives shorter than the views window (contract §13.1)', async () => {
    const { openApiDocument } = await import('#docs/openapi.ts');
    const doc = openApiDocument() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    // A success that names decks: its schema, or a component it refers to (and so on), has a share_slug.
    const names = (schema: unknown, seen: Set<string>): boolean => {
      const text = JSON.stringify(schema ?? {});
      if (text.includes('"share_slug"')) return true;
      return [...text.matchAll(/#\/components\/schemas\/(\w+)/g)].some(([, name]) => {
        if (seen.has(name as string)) return false;
        seen.add(name as string);
        return names(doc.components.schemas[name as string], seen);
      });
    };
    const namesDecks = (r: Route) => names(doc.paths[r.path]?.[r.method.toLowerCase()]?.responses?.['200'], new Set());
    const cached = (ROUTES as readonly Route[]).filter((r) => r.edge === 'cached');
    const naming = cached.filter(namesDecks);
    expect(naming.map((r) => r.name)).toContain('readSimilarToCode');
    for (const r of naming) {
      const maxAge = Number(/max-age=(\d+)/.exec(r.cache ?? '')?.[1]);
      expect([r.name, maxAge < VIEWS_WINDOW_SECONDS, /stale-while/.test(r.cache ?? '')]).toEqual([r.name, true, false]);
    }
  });

  it('no source of the service spells a lifetime but their declaration', () => {
    const spelled = [...sources('lib', 'functions', 'infra')]
      .filter(([file, source]) => !file.endsWith('cache-lifetimes.ts') && /max-age=\d|stale-while-revalidate=\d|\bimmutable'/.test(source))
      .map(([file]) => file);
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

  it('a batch of views is logged, and reading many items at once is bulk: no text of lib/ says a view batch is recorded, nor calls a bulk call a batch', () => {
    const said = (pattern: RegExp) =>
      [...sources('lib')].flatMap(([file, source]) => [...source.matchAll(pattern)].map((m) => `${file}: ${m[0]}`));
    // A stream's batch of records is a batch; a batch of views is logged (the view log), not "recorded".
    expect(said(/\bbatch(?:es)?\b[^.\n]{0,20}\brecorded\b|\brecords? (?:the |a |its )?(?:view )?batch\b/gi)).toEqual([]);
    // BatchGetItem and BatchWriteItem are bulk calls (lib/store/bulk.ts): "a batch read", "an item of a batch" are not said of them.
    expect(said(/\bbatch (?:read|call)s?\b|\bitem of a batch\b/gi)).toEqual([]);
  });
});
