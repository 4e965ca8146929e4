/**
 * Fonts cut to what a catalogue names (subset-font: HarfBuzz's subsetter as WebAssembly), for the deck
 * image functions (infra: ServiceFunction runs this at synth, once, for a route's `subsetFonts`): each face to
 * every character of every card name in its languages (lib/share/fonts.ts), of the faction names the
 * project has in them (rules/factions.ts FACTION_NAMES), of the image's labels in them (rules/labels.ts), and printable ASCII — a face holds what it will
 * draw, not every language's characters, so a CJK face costs the function a few hundred KB rather than 10 MB.
 * Usage: tsx scripts/subset-fonts.ts CATALOGUE_FILE OUT_DIR FONT.ttf=LANG,LANG…  (each written to OUT_DIR under its own name)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import subsetFont from 'subset-font';
import { loadCatalogueFile } from '../lib/catalogue/load.ts';
import { cardName } from '../lib/rules/card.ts';
import { factionName } from '../lib/rules/faction-names.ts';
import { FACTIONS } from '../lib/rules/factions.ts';
import { labelTexts } from '../lib/rules/labels.ts';

const [catalogueFile, outDir, ...fonts] = process.argv.slice(2);
if (!catalogueFile || !outDir || fonts.length === 0)
  throw new Error('usage: tsx scripts/subset-fonts.ts CATALOGUE_FILE OUT_DIR FONT.ttf=LANG,LANG…');

const catalogue = loadCatalogueFile(catalogueFile);
const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
for (const arg of fonts) {
  const at = arg.lastIndexOf('=');
  const [font, languages] =
    at < 0
      ? [arg, []]
      : [
          arg.slice(0, at),
          arg
            .slice(at + 1)
            .split(',')
            .filter(Boolean),
        ];
  const names = languages.flatMap((language) => [
    ...catalogue.cards.map((card) => cardName(card, language)),
    ...FACTIONS.map((f) => factionName(f.id, language)),
    ...labelTexts(language),
  ]);
  const text = [...new Set([...ascii, ...names.join('')])].join('');
  const cut = await subsetFont(readFileSync(font), text, { targetFormat: 'truetype' });
  writeFileSync(join(outDir, basename(font)), cut);
  console.log(`${basename(font)} (${languages.join(', ') || 'none'}): ${[...text].length} characters, ${cut.length} bytes`);
}
