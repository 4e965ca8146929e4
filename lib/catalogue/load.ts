/**
 * The service's catalogue (contract §7): CATALOGUE_FILE when set (either card format), else the demo
 * catalogue the project ships. Loaded once per process; a bad file fails loudly at start-up.
 */
import { readFileSync } from 'node:fs';
import { type Catalogue, parseCatalogue } from '#rules/catalogue.ts';
import demoCards from './demo-cards.json' with { type: 'json' };

let cached: { file: string | undefined; catalogue: Catalogue } | undefined;

export function loadCatalogueFile(file: string): Catalogue {
  return parseCatalogue(JSON.parse(readFileSync(file, 'utf8')));
}

export const demoCatalogue = (): Catalogue => parseCatalogue(demoCards);

export function catalogue(file: string | undefined = process.env.CATALOGUE_FILE || undefined): Catalogue {
  if (cached?.file !== file || !cached) {
    cached = { file, catalogue: file ? loadCatalogueFile(file) : demoCatalogue() };
  }
  return cached.catalogue;
}
