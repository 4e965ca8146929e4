/**
 * What the code's comments point at: a file or folder of the repository named in lib, infra, functions, bin or
 * scripts exists, and a name given after a file (`lib/routes/workers.ts VIEW_SUBSCRIPTION`, `… route.ts \`query\``)
 * is declared in it — a pointer left behind by a move fails here. Comments say what is: no issue numbers (history
 * is git's and the docs').
 */
import { existsSync, globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/shared.ts';

const SOURCES = globSync('{lib,infra,functions,bin,scripts}/**/*.{ts,mjs,js}', { cwd: PROJECT_ROOT }).sort();
const text = (file: string) => readFileSync(join(PROJECT_ROOT, file), 'utf8');
/** A path from the repository's root as a comment or a string writes one (no glob, no template). */
const PATH = /(?<![\w./#-])((?:lib|infra|functions|bin|scripts|test|docs|clients)\/[\w./-]*)/g;
/** A file or folder named, then a name: an identifier with a capital inside, or one in backticks. */
const NAMED = /(?<![\w./#-])((?:lib|infra|functions|bin|scripts|test)\/[\w./-]+(?:\.ts|\/))\)?,? (`?)([A-Za-z_]\w*)\2/g;
const inFolder = (folder: string) => globSync(`${folder}**/*.ts`, { cwd: PROJECT_ROOT });
const clean = (path: string) => path.replace(/[.,:;]+$/, '');

/** Every path in `files`' texts that names nothing in the repository, as `file: path`. */
function stalePaths(files: readonly string[], read = text, exists = (p: string) => existsSync(join(PROJECT_ROOT, p))) {
  const stale: string[] = [];
  for (const file of files)
    for (const [, raw] of read(file).matchAll(PATH)) {
      const path = clean(raw as string);
      if (!exists(path) && !exists(`${path}.ts`)) stale.push(`${file}: ${path}`);
    }
  return stale;
}

/** Every `file NAME` pointer in `files`' texts whose name the file does not declare, as `file: path NAME`. */
function staleNames(files: readonly string[], read = text, list = inFolder) {
  const stale: string[] = [];
  for (const file of files)
    for (const m of read(file).matchAll(NAMED)) {
      const [, path, quoted, name] = m;
      if (!quoted && !/^[A-Z][A-Z0-9_]+$|^[a-z]+[A-Z]\w*$/.test(name as string)) continue;
      // A command's usage line names its arguments after it, not names of its code.
      const line = m.input.slice(m.input.lastIndexOf('\n', m.index) + 1, m.input.indexOf('\n', m.index));
      if (/\busage\b/i.test(line)) continue;
      let target: string;
      try {
        target = (path as string).endsWith('/')
          ? list(path as string)
              .map(read)
              .join('\n')
          : read(clean(path as string));
      } catch {
        stale.push(`${file}: ${path} (no such file)`);
        continue;
      }
      const declares = new RegExp(
        `\\b(?:const|let|function|class|interface|type|enum)\\s+${name}\\b|\\b${name}\\s*[:(=]|\\bexport\\s*\\{[^}]*\\b${name}\\b`,
      );
      if (!declares.test(target)) stale.push(`${file}: ${path} ${name}`);
    }
  return stale;
}

describe('what comments point at', () => {
  it('no comment in lib or infra carries an issue number', () => {
    const found = SOURCES.filter((f) => /^(lib|infra)\//.test(f)).flatMap((file) =>
      text(file)
        .split('\n')
        .flatMap((line, i) => (/\bissues? #?\d/i.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('every path named exists, and every name given after a file is declared in it', () => {
    expect(SOURCES.length).toBeGreaterThan(200);
    expect(stalePaths(SOURCES)).toEqual([]);
    expect(staleNames(SOURCES)).toEqual([]);
  });

  it('finds a pointer left behind by a move: a file gone, a name moved to another file', () => {
    const files: Record<string, string> = {
      'lib/a.ts': '/** Counted from the access log (lib/workers/ VIEW_SUBSCRIPTION), see lib/routes/workers.ts DAY_OPENER. */',
      'lib/b.ts': '// The mapping (lib/routes/gone.ts), its bound (lib/routes/workers.ts `GIVE_UP`).',
      'lib/routes/workers.ts': 'export const GIVE_UP = 1;',
    };
    const read = (f: string) => {
      if (!(f in files)) throw new Error(`no ${f}`);
      return files[f] as string;
    };
    const exists = (p: string) => p in files || p === 'lib/workers' || p === 'lib/workers/' || p === 'lib/routes';
    expect(stalePaths(Object.keys(files), read, exists)).toEqual(['lib/b.ts: lib/routes/gone.ts']);
    const list = (folder: string) => Object.keys(files).filter((f) => f.startsWith(folder));
    expect(staleNames(Object.keys(files), read, list)).toEqual([
      'lib/a.ts: lib/workers/ VIEW_SUBSCRIPTION',
      'lib/a.ts: lib/routes/workers.ts DAY_OPENER',
    ]);
  });
});
