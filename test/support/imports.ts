/**
 * The project's modules as their source says they import each other, for the tests that hold the house to its
 * rules (test/unit/layers.test.ts): every module's source, every import it makes (static,
 * `import type`, re-exports, dynamic) and the file an import names, through the `#` aliases of package.json or a
 * relative path.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

const ALIASES = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).imports as Record<string, string>;

/** The file (relative to the project) a specifier imported from `file` names; none for a package or node:. */
export function resolveImport(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('#')) {
    const exact = ALIASES[specifier];
    const wild = Object.entries(ALIASES).find(([k]) => k.endsWith('/*') && specifier.startsWith(k.slice(0, -1)));
    const target = exact ?? (wild ? wild[1].replace('*', specifier.slice(wild[0].length - 1)) : undefined);
    if (target === undefined) throw new Error(`${file}: ${specifier} is no alias of package.json`);
    return normalize(target);
  }
  return specifier.startsWith('.') ? normalize(join(dirname(file), specifier)) : undefined;
}

/** Every import of a module's source: static (values and types), re-exports and dynamic ones. */
export const importsOf = (source: string): string[] =>
  [...source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => (m[1] ?? m[2]) as string,
  );

/** The modules (.ts, .mts, .js, .mjs) under `dir`, relative to the project. */
export function modules(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(join(ROOT, path)).isDirectory()) return modules(path);
    return /\.(ts|mts|js|mjs)$/.test(name) ? [path] : [];
  });
}

/** Each module under the folders and its source. */
export const sources = (...dirs: string[]): Map<string, string> =>
  new Map(dirs.flatMap(modules).map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));
