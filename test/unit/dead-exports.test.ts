/**
 * No dead exports in lib/ (issue 47: `checkArchive`, `isFactionId`, `outsideRequest`… were exported and used
 * nowhere): every name a module of lib/ exports — declared there or re-exported — is used, by a module that
 * imports that module (functions/, infra/, test/, scripts/, bin/ or lib/ itself; `export *` passes its importers
 * on), or in the module itself. Read from the source (test/support/imports.ts), by name: a name mentioned by an
 * importer counts as used. A planted unused export is found.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES } from '#routes';
import { DAILY_WORKERS, VIEW_SUBSCRIPTION, WORKERS } from '#routes/workers.ts';
import { importsOf, resolveImport, sources } from '../support/imports.ts';

const DECLARED =
  /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:const|let|var|function\*?|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;
const LISTED = /^export\s+(?:type\s+)?\{([^}]*)\}/gm;

/** The names a module's source exports. */
function exportsOf(source: string): string[] {
  const listed = [...source.matchAll(LISTED)].flatMap((m) =>
    (m[1] as string)
      .split(',')
      .map((item) => item.trim().split(/\s+/).at(-1) as string)
      .filter(Boolean),
  );
  return [...[...source.matchAll(DECLARED)].map((m) => m[1] as string), ...listed];
}

const mentions = (source: string, name: string): number =>
  source.match(new RegExp(`(?<![\\w$])${name.replace('$', '\\$')}(?![\\w$])`, 'g'))?.length ?? 0;

/** `file name` for each export of lib/ no importer and not its own module uses. */
function deadExports(tree: ReadonlyMap<string, string>): string[] {
  const importers = new Map<string, string[]>();
  for (const [file, source] of tree)
    for (const specifier of importsOf(source)) {
      const target = resolveImport(file, specifier);
      if (target) importers.set(target, [...(importers.get(target) ?? []), file]);
    }
  // What `export * from` passes on: the re-exporting module's importers import the re-exported one too.
  const reachedBy = (file: string, seen = new Set<string>()): string[] => {
    seen.add(file);
    return (importers.get(file) ?? []).flatMap((importer) => {
      const passes = [...(tree.get(importer) ?? '').matchAll(/^export \* from ['"]([^'"]+)['"]/gm)].some(
        (m) => resolveImport(importer, m[1] as string) === file,
      );
      return [importer, ...(passes && !seen.has(importer) ? reachedBy(importer, seen) : [])];
    });
  };
  const dead: string[] = [];
  for (const [file, source] of tree) {
    if (!file.startsWith('lib/')) continue;
    const users = reachedBy(file);
    for (const name of exportsOf(source))
      if (mentions(source, name) < 2 && !users.some((user) => mentions(tree.get(user) ?? '', name) > 0)) dead.push(`${file} ${name}`);
  }
  return dead;
}

const tree = sources('lib', 'functions', 'infra', 'test', 'scripts', 'bin');

describe('exports', () => {
  it('every export of lib/ is used: by a module that imports it, or its own', () => {
    expect(tree.size).toBeGreaterThan(300);
    expect(deadExports(tree)).toEqual([]);
  });

  it('finds a planted unused export, declared or re-exported, and counts a use through export *', () => {
    const planted = new Map([
      ...tree,
      ['lib/rules/planted.ts', 'export const plantedUnused = 1;\nexport const plantedUsed = 2;\nexport type PlantedType = number;'],
      ['lib/rules/passes.ts', "export { plantedUsed as passedOn } from './planted.ts';\nexport * from './planted.ts';"],
      ['lib/store/planted-user.ts', "import { PlantedType, passedOn } from '#rules/passes.ts';\nconst x: PlantedType = passedOn;"],
    ]);
    expect(deadExports(planted)).toEqual([...deadExports(tree), 'lib/rules/planted.ts plantedUnused']);
  });

  it("no dead function: functions/ holds each route's and worker's handler module (named after it: handlerOf), and nothing else", () => {
    const handlers = [...ROUTES, ...WORKERS, VIEW_SUBSCRIPTION, ...DAILY_WORKERS].map((r) => r.handler);
    expect(new Set(handlers).size).toBe(handlers.length);
    expect([...tree.keys()].filter((file) => file.startsWith('functions/')).sort()).toEqual(handlers.sort());
  });
});
