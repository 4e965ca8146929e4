/**
 * The house's import graph (README, "The house"; issues 47, 59): which part of lib/ may import which, as a graph of
 * allowed edges — not ranks on a line, which claimed an order between parts that never meet (http and workers, docs
 * and decks). Every import of lib/ (static imports and re-exports, `import type` included, and dynamic imports,
 * through the `#` aliases of package.json and relative paths alike) is an edge of it or stays in its own folder;
 * every edge of it is used (the graph says what is, not what once was); it has no circle; and the README states it
 * line for line. A planted import off the graph, and a planted circle, are found. The README stays a map: at most
 * 150 lines, every folder of lib/ named in it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, ROOT, resolveImport, sources } from '../support/imports.ts';

/**
 * Each part of lib/ and the parts it may import. Endpoints (what a function runs) import the stack, the declarations
 * and what they are made of; the workers the declarations and the store; the store the pure rules; the rules and the
 * process's own utilities (logger, metrics, shipped files) nothing.
 */
const GRAPH: Readonly<Record<string, readonly string[]>> = {
  cli: ['auth', 'catalogue', 'discord', 'http', 'rules', 'store', 'workers'],
  discord: ['catalogue', 'http', 'logger.ts', 'public', 'routes', 'rules', 'store'],
  collection: ['catalogue', 'decks', 'http', 'public', 'routes', 'rules', 'store'],
  events: ['catalogue', 'decks', 'http', 'logger.ts', 'public', 'routes', 'rules', 'shapes', 'share', 'store'],
  webhooks: ['catalogue', 'decks', 'discord', 'http', 'logger.ts', 'public', 'routes', 'rules', 'shapes', 'store'],
  public: ['catalogue', 'decks', 'docs', 'http', 'routes', 'rules', 'shapes', 'share', 'store'],
  account: ['auth', 'catalogue', 'http', 'routes', 'rules', 'shapes', 'store'],
  decks: ['auth', 'catalogue', 'http', 'metrics.ts', 'routes', 'rules', 'shapes', 'store'],
  docs: ['http', 'routes', 'rules', 'shapes', 'shipped.ts'],
  http: ['auth', 'logger.ts', 'metrics.ts', 'routes', 'rules', 'shapes', 'store'],
  workers: ['catalogue', 'logger.ts', 'metrics.ts', 'routes', 'rules', 'store', 'webhooks'],
  routes: ['rules', 'shapes', 'share', 'store'],
  shapes: ['rules', 'store'],
  share: ['rules', 'shipped.ts', 'store'],
  catalogue: ['archetypes', 'logger.ts', 'rules', 'store'],
  auth: ['rules', 'store'],
  store: ['metrics.ts', 'rules'],
  rules: [],
  archetypes: [],
  'logger.ts': [],
  'metrics.ts': [],
  'shipped.ts': [],
};

/** The part of lib/ a specifier imported from `file` names, or none (a package, node:, or outside lib/). */
function partOf(file: string, specifier: string): string | undefined {
  const target = resolveImport(file, specifier);
  return target?.startsWith('lib/') ? target.split('/')[1] : undefined;
}

/** The edges between parts the imports make: `from → to` → the first import that makes it. */
function edgesOf(sources: ReadonlyMap<string, string>): Map<string, string> {
  const edges = new Map<string, string>();
  for (const [file, source] of sources) {
    const from = file.split('/')[1] as string;
    for (const specifier of importsOf(source)) {
      const to = partOf(file, specifier);
      if (to !== undefined && to !== from && !edges.has(`${from} → ${to}`)) edges.set(`${from} → ${to}`, `${file} → ${specifier}`);
    }
  }
  return edges;
}

/** The imports off the graph: `file → specifier (from → to)`, and each part the graph does not name. */
function offGraph(sources: ReadonlyMap<string, string>, graph = GRAPH): string[] {
  const found: string[] = [];
  for (const part of new Set([...sources.keys()].map((f) => f.split('/')[1] as string)))
    if (!(part in graph)) found.push(`lib/${part} is not in the graph`);
  for (const [edge, where] of edgesOf(sources)) {
    const [from, to] = edge.split(' → ') as [string, string];
    if (from in graph && !graph[from]?.includes(to)) found.push(`${where} (${edge})`);
  }
  return found;
}

/** Each circle of a graph (node → the nodes it points to), as `a → b → a`: found once, from its first node in order. */
function circlesOf(edges: Readonly<Record<string, readonly string[]>>): string[] {
  const found = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of edges[node] ?? []) {
      if (state.get(next) === 'open') found.add([...path.slice(path.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of Object.keys(edges).sort()) if (!state.has(node)) visit(node);
  return [...found];
}

const tree = sources('lib');

describe('the import graph', () => {
  it('every import of lib/ is an edge of the graph, or stays in its folder; every edge is used; no circle', () => {
    expect(tree.size).toBeGreaterThan(150);
    expect(offGraph(tree)).toEqual([]);
    const used = new Set(edgesOf(tree).keys());
    const unused = Object.entries(GRAPH).flatMap(([from, tos]) => tos.map((to) => `${from} → ${to}`).filter((e) => !used.has(e)));
    expect(unused).toEqual([]);
    // Every part of lib/: a folder of sources, or of data its sources import (lib/archetypes/'s rules files).
    const parts = [...[...tree.keys()].map((f) => f.split('/')[1]), ...[...used].map((e) => e.split(' → ')[1])];
    expect(Object.keys(GRAPH).sort()).toEqual([...new Set(parts)].sort());
    expect(circlesOf(GRAPH)).toEqual([]);
  });

  it('finds a planted import off the graph, of any form, and a planted circle', () => {
    for (const planted of [
      "import { parseDeckCode } from './deck-code.ts';\nimport { invalidParameter } from '#http/errors.ts';",
      "import type { Route } from '#routes/route.ts';",
      "export { deckBySlug } from '../store/decks.ts';",
      "const m = await import('#public/codes.ts');",
    ]) {
      const found = offGraph(new Map([...tree, ['lib/rules/planted.ts', planted]]));
      expect(found, planted).toHaveLength(1);
      expect(found[0]).toMatch(/^lib\/rules\/planted\.ts → /);
    }
    // Two parts that never meet (http and workers) may not start to.
    expect(offGraph(new Map([['lib/http/planted.ts', "import { x } from '#workers/batch.ts';"]]))).toHaveLength(1);
    expect(circlesOf({ ...GRAPH, store: [...(GRAPH.store ?? []), 'http'] })).not.toEqual([]);
  });
});

/** Each circle of imports among lib/'s modules (type imports included), inside a folder or across: `a → b → a`. */
const circles = (sources: ReadonlyMap<string, string>): string[] =>
  circlesOf(
    Object.fromEntries(
      [...sources].map(([file, source]) => [
        file,
        importsOf(source)
          .map((s) => resolveImport(file, s))
          .filter((t): t is string => t !== undefined && sources.has(t)),
      ]),
    ),
  );

describe('circles', () => {
  it('no module of lib/ imports one that imports it back, however far round (inside a folder too)', () => {
    expect(circles(tree)).toEqual([]);
  });

  it('finds a planted circle inside one folder, a type import included', () => {
    const planted = new Map([
      ...tree,
      ['lib/store/planted-a.ts', "import type { B } from './planted-b.ts';"],
      ['lib/store/planted-b.ts', "import { a } from './planted-a.ts';"],
    ]);
    expect(circles(planted)).toEqual(['lib/store/planted-a.ts → lib/store/planted-b.ts → lib/store/planted-a.ts']);
  });
});

describe('the README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  it('fits on a screen or two: at most 150 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(150);
  });
  it('its map names every folder of lib/, and states the import graph of this test line for line', () => {
    const map = readme.slice(readme.indexOf('## The house'));
    const folders = readdirSync(join(ROOT, 'lib')).filter((name) => statSync(join(ROOT, 'lib', name)).isDirectory());
    for (const folder of [...folders, 'store/items']) expect(map, folder).toContain(`lib/${folder}/`);
    // Its lines `    lib/<part>  → <part>, <part>` (or "nothing").
    const stated = Object.fromEntries(
      [...map.matchAll(/^ {4}lib\/(\S+?)\/? +→ (.+)$/gm)].map(([, part, tos]) => [
        part,
        tos === 'nothing' ? [] : (tos as string).split(', ').map((t) => t.trim()),
      ]),
    );
    expect(stated).toEqual(Object.fromEntries(Object.entries(GRAPH).map(([part, tos]) => [part, [...tos]])));
  });
});
