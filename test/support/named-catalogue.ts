/**
 * The real catalogue of ../shared (read at test time, never copied) named in all 12 of the game's languages
 * as the GraphQL stand-in names them (kards-standin.ts standInTitles: German with a "(DE)" mark, Japanese in
 * katakana, Russian in Cyrillic letters…), written in the project's own card format to a temporary file: what
 * a `catalogue fetch` of every language gives, without a fetch.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalogueFile } from '#catalogue/load.ts';
import type { Catalogue } from '#rules/catalogue.ts';
import { KARDS_LANGUAGES, KARDS_LOCALES } from '#rules/kards-graphql.ts';
import { standInTitles } from './kards-standin.ts';
import { REAL_CATALOGUE_FILE } from './shared.ts';

/** A card's name in a language, as the stand-in names it. */
export const nameIn = (english: string, language: string): string =>
  language === 'en' ? english : (standInTitles(english)[KARDS_LOCALES[language] as string] as string);

/** The file and the catalogue it holds. */
export function namedRealCatalogue(): { file: string; catalogue: Catalogue } {
  const real = loadCatalogueFile(REAL_CATALOGUE_FILE);
  const file = join(mkdtempSync(join(tmpdir(), 'deck-library-named-')), 'cards.json');
  const cards = real.cards.map(({ names: _names, ...card }) => ({
    ...card,
    names: Object.fromEntries(KARDS_LANGUAGES.filter((l) => l !== 'en').map((l) => [l, nameIn(card.name, l)])),
  }));
  writeFileSync(file, JSON.stringify(cards));
  return { file, catalogue: loadCatalogueFile(file) };
}
