/**
 * The service's catalogue (contract §7): CATALOGUE_FILE when set (either card format), else the demo
 * catalogue the project ships beside this module. A file, not an import: a Lambda bundle carries no
 * catalogue in its code, and the CDK stack copies the chosen file only into the functions that need
 * it. Loaded once per process; a bad file fails loudly.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Catalogue, parseCatalogue } from '#rules/catalogue.ts';

export const DEMO_CATALOGUE_FILE = new URL('./demo-cards.json', import.meta.url);

let cached: { file: string | URL; catalogue: Catalogue; tag: string } | undefined;

export function loadCatalogueFile(file: string | URL): Catalogue {
  return parseCatalogue(JSON.parse(readFileSync(file, 'utf8')));
}

export const demoCatalogue = (): Catalogue => loadCatalogueFile(DEMO_CATALOGUE_FILE);

const loaded = (file: string | URL = process.env.CATALOGUE_FILE || DEMO_CATALOGUE_FILE) => {
  // Same file as last time (the common case: the very same value) costs no string conversion.
  if (!cached || (cached.file !== file && String(cached.file) !== String(file))) {
    const text = readFileSync(file, 'utf8');
    cached = { file, catalogue: parseCatalogue(JSON.parse(text)), tag: createHash('sha256').update(text).digest('base64url').slice(0, 22) };
  }
  return cached;
};

export const catalogue = (file?: string | URL): Catalogue => loaded(file).catalogue;

/** What names the catalogue the service runs with (a hash of its file): in the validators of what is drawn from it. */
export const catalogueTag = (file?: string | URL): string => loaded(file).tag;
