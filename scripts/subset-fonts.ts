/**
 * Fonts cut to what a catalogue names (subset-font: HarfBuzz's subsetter as WebAssembly), for the deck
 * image function (infra: ServiceFunction runs this at synth, once, for a route's `subsetFonts`): every
 * character of every card name in every language of the catalogue, of every faction name the project
 * has (rules/factions.ts FACTION_NAMES), and printable ASCII, so that a CJK
 * font costs the function a few hundred KB rather than 10 MB a face.
 * Usage: tsx scripts/subset-fonts.ts CATALOGUE_FILE OUT_DIR FONT.ttf…  (each written to OUT_DIR under its own name)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import subsetFont from 'subset-font';
import { loadCatalogueFile } from '../lib/catalogue/load.ts';
import { FACTION_NAMES } from '../lib/rules/factions.ts';

const [catalogueFile, outDir, ...fonts] = process.argv.slice(2);
if (!catalogueFile || !outDir || fonts.length === 0) throw new Error('usage: tsx scripts/subset-fonts.ts CATALOGUE_FILE OUT_DIR FONT.ttf…');

const names = [
  ...loadCatalogueFile(catalogueFile).cards.flatMap((card) => [card.name, ...Object.values(card.names ?? {})]),
  ...Object.values(FACTION_NAMES).flatMap((byFaction) => Object.values(byFaction)),
];
const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const text = [...new Set([...ascii, ...names.join('')])].join('');
for (const font of fonts) {
  const cut = await subsetFont(readFileSync(font), text, { targetFormat: 'truetype' });
  writeFileSync(join(outDir, basename(font)), cut);
  console.log(`${basename(font)}: ${[...text].length} characters, ${cut.length} bytes`);
}
