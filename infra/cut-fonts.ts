/**
 * A route's `subsetFonts`, each cut to the characters a catalogue names in its languages
 * (scripts/subset-fonts.ts: subset-font is asynchronous, CDK constructs are not, so it runs as a process of
 * its own), written into a folder under their own names: the CDK construct's staging folder at synth, the
 * benchmark's bundle folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SubsetFont } from '#routes';

const ROOT = resolve(import.meta.dirname, '..');

export function cutFonts(catalogueFile: string, outDir: string, fonts: readonly SubsetFont[] = []): void {
  if (fonts.length === 0) return;
  mkdirSync(outDir, { recursive: true });
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      resolve(ROOT, 'scripts/subset-fonts.ts'),
      catalogueFile,
      outDir,
      ...fonts.map((f) => `${resolve(ROOT, f.file)}=${f.languages.join(',')}`),
    ],
    { cwd: ROOT, stdio: 'pipe' },
  );
}
