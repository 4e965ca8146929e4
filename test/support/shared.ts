/** Where the shared reference data is: ../shared beside the project (or SHARED_DIR). Never copied in. */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
export const SHARED_DIR = process.env.SHARED_DIR ?? resolve(PROJECT_ROOT, '../shared');
export const KARDS_DIR = resolve(SHARED_DIR, 'reference/kards');
export const REAL_CODES_FILE = resolve(KARDS_DIR, 'real_deck_codes.json');
export const REAL_CATALOGUE_FILE = resolve(KARDS_DIR, 'cards.json');

export const hasRealCodes = existsSync(REAL_CODES_FILE);
export const hasRealCatalogue = existsSync(REAL_CATALOGUE_FILE);

export interface RealCode {
  key: string;
  code: string;
  format: string;
  main: string;
  ally: string;
  cards: { code: string; copies: number }[];
}
export const realCodes = (): RealCode[] => (hasRealCodes ? JSON.parse(readFileSync(REAL_CODES_FILE, 'utf8')) : []);

if (!hasRealCodes) console.warn(`shared reference data not found at ${KARDS_DIR}: real-data tests are skipped`);
