/**
 * The service's catalogue (contract §7): CATALOGUE_FILE when set (either card format), else the demo
 * catalogue the project ships beside this module. A file, not an import: a Lambda bundle carries no
 * catalogue in its code, and the CDK stack copies the chosen file only into the functions that need
 * it. Loaded once per process; a bad file fails loudly.
 */
import { readFileSync } from 'node:fs';
import { type Catalogue, parseCatalogue } from '#rules/catalogue.ts';

export const DEMO_CATALOGUE_FILE = new URL('./demo-cards.json', import.meta.url);

let cached: { file: string | URL; catalogue: Catalogue } | undefined;

export function loadCatalogueFile(file: string | URL): Catalogue {
  return parseCatalogue(JSON.parse(readFileSync(file, 'utf8')));
}

export const demoCatalogue = (): Catalogue => loadCatalogueFile(DEMO_CATALOGUE_FILE);

export function catalogue(file: string | URL = process.env.CATALOGUE_FILE || DEMO_CATALOGUE_FILE): Catalogue {
  // Same file as last time (the common case: the very same value) costs no string conversion.
  if (!cached || (cached.file !== file && String(cached.file) !== String(file))) cached = { file, catalogue: loadCatalogueFile(file) };
  return cached.catalogue;
}
