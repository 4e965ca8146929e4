/**
 * The house's one-way rule (README, "The house"; issue 47): every import of lib/ points down the layers below,
 * or stays in its own folder — read from the source of every module (static imports and re-exports, `import type`
 * included, and dynamic imports), through the `#` aliases of package.json and relative paths alike. A planted
 * upward import is found (the check is run on the tree with one added). And the README stays a map: at most 150
 * lines, every folder of lib/ named in it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, ROOT, resolveImport, sources } from '../support/imports.ts';

/**
 * Each part of lib/ and its layer, highest first: a module may import its own part, and any part of a higher
 * number. Endpoints (what a function runs) on top; the stack; the declarations; what they are made of; the store
 * and what reads it; the pure rules and the process's own utilities (logger, metrics, shipped files) at the bottom.
 */
const LAYERS: Readonly<Record<string, number>> = {
  cli: 0,
  discord: 1,
  collection: 1,
  public: 2,
  account: 2,
  docs: 3,
  decks: 4,
  http: 5,
  workers: 6,
  routes: 7,
  shapes: 8,
  share: 8,
  catalogue: 9,
  auth: 9,
  store: 10,
  rules: 11,
  'logger.ts': 12,
  'metrics.ts': 12,
  'shipped.ts': 12,
};

/** The part of lib/ a specifier imported from `file` names, or none (a package, node:, or outside lib/). */
function partOf(file: string, specifier: string): string | undefined {
  const target = resolveImport(file, specifier);
  return target?.startsWith('lib/') ? target.split('/')[1] : undefined;
}

/** The imports that break the rule: `file → specifier (from part → to part)`. */
function upward(sources: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, source] of sources) {
    const from = file.split('/')[1] as string;
    const rank = LAYERS[from];
    if (rank === undefined) {
      found.push(`${file}: lib/${from} has no layer (LAYERS)`);
      continue;
    }
    for (const specifier of importsOf(source)) {
      const to = partOf(file, specifier);
      if (to === undefined || to === from) continue;
      const toRank = LAYERS[to];
      if (toRank === undefined || toRank <= rank) found.push(`${file} → ${specifier} (${from} → ${to})`);
    }
  }
  return found;
}

const tree = sources('lib');

describe('layers', () => {
  it('every import of lib/ points down the layers, or stays in its folder', () => {
    expect(tree.size).toBeGreaterThan(150);
    expect(upward(tree)).toEqual([]);
    // Every part of lib/ has a layer, and every layer names a part that exists.
    const parts = new Set([...tree.keys()].map((f) => f.split('/')[1]));
    expect([...parts].sort()).toEqual(Object.keys(LAYERS).sort());
  });

  it('finds a planted upward import, of any form', () => {
    for (const planted of [
      "import { logger } from '#logger';\nimport { invalidParameter } from '#http/errors.ts';",
      "import type { Route } from '#routes/route.ts';",
      "export { deckBySlug } from '../store/decks.ts';",
      "const m = await import('#public/codes.ts');",
    ]) {
      const found = upward(new Map([...tree, ['lib/rules/planted.ts', planted]]));
      expect(found, planted).toHaveLength(1);
      expect(found[0]).toMatch(/^lib\/rules\/planted\.ts → /);
    }
    // A same-layer import between two parts is upward too (decks and public must not need each other).
    expect(upward(new Map([['lib/account/planted.ts', "import { x } from '#public/codes.ts';"]]))).toHaveLength(1);
  });
});

/** Each circle of imports among lib/'s modules (type imports included), inside a folder or across: `a → b → a`. */
function circles(sources: ReadonlyMap<string, string>): string[] {
  const edges = new Map<string, string[]>();
  for (const [file, source] of sources)
    edges.set(
      file,
      importsOf(source)
        .map((s) => resolveImport(file, s))
        .filter((t): t is string => t !== undefined && sources.has(t)),
    );
  const found = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') found.add([...path.slice(path.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...sources.keys()].sort()) if (!state.has(file)) visit(file);
  return [...found];
}

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
  it('its map names every folder of lib/ (and the layers it states are those of this test)', () => {
    const map = readme.slice(readme.indexOf('## The house'));
    const folders = readdirSync(join(ROOT, 'lib')).filter((name) => statSync(join(ROOT, 'lib', name)).isDirectory());
    for (const folder of [...folders, 'store/items']) expect(map, folder).toContain(`lib/${folder}/`);
  });
});
