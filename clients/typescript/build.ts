/**
 * Builds dist/: index.js (ESM, openapi-fetch left as the dependency it is) and the declarations (index.d.ts,
 * operations.d.ts, schema.d.ts). `bundled()` is the same source with its dependency bundled in and minified: what a
 * bundler ships of it, measured by the repository's test/client/client-package.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type BuildOptions, build } from 'esbuild';

const here = import.meta.dirname;
const common: BuildOptions = {
  entryPoints: [join(here, 'src/index.ts')],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
};

export async function bundled(): Promise<Uint8Array> {
  const out = await build({ ...common, minify: true, write: false });
  const [file] = out.outputFiles ?? [];
  if (!file) throw new Error('esbuild wrote nothing');
  return file.contents;
}

if (process.argv[1] === import.meta.filename) {
  rmSync(join(here, 'dist'), { recursive: true, force: true });
  await build({ ...common, external: ['openapi-fetch'], outfile: join(here, 'dist/index.js') });
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });
  copyFileSync(join(here, 'src/schema.d.ts'), join(here, 'dist/schema.d.ts'));
  console.log('built clients/typescript/dist');
}
