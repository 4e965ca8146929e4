/**
 * `deckctl archetypes check [--rules FILE] [--bulk FILE] [--json] [--aws]`: a rules file (default: the rules in use,
 * the newest period's of lib/archetypes/) read against the catalogue in use and applied to the public library (or to a
 * bulk `decks` file: NDJSON, gzip or not): the decks each rule takes, those none takes, those two rules of one priority
 * take, and those whose archetype differs from what the rules in use give — a few of each named. Exit 1 when the file
 * does not read (its schema, a card the catalogue lacks: the line named) or when two rules of one priority take a deck.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { catalogue } from '#catalogue/load.ts';
import { type ArchetypeCheck, ArchetypeRulesError, type CheckedDeck, checkArchetypes, readArchetypeRules } from '#rules/archetypes.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import { allPublicDecks } from '#store/decks.ts';
import { useStore } from './accounts.ts';

/** Where the rules files are: one a period of the card pool, named by it (YYYY-MM.json). */
export const RULES_DIR = join(import.meta.dirname, '../archetypes');
const PERIOD_FILE = /^\d{4}-\d{2}\.json$/;

/** The rules in use: the newest period's file. */
export const rulesInUseFile = (): string =>
  join(
    RULES_DIR,
    readdirSync(RULES_DIR)
      .filter((f) => PERIOD_FILE.test(f))
      .sort()
      .at(-1) as string,
  );

/** A bulk `decks` file's decks (gzip or not), one a line. */
function* bulkDecks(file: string): Generator<CheckedDeck> {
  const raw = readFileSync(file);
  const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const d = JSON.parse(line) as {
      share_slug?: string;
      main_faction: string;
      ally_faction: string;
      cards: { card_id: string; count: number }[];
    };
    yield { name: d.share_slug ?? `line ${i + 1}`, main: d.main_faction, ally: d.ally_faction, cards: d.cards };
  }
}

async function* libraryDecks(): AsyncGenerator<CheckedDeck> {
  for await (const d of allPublicDecks())
    yield { name: d.share_slug, main: d.main_faction, ally: d.ally_faction, cards: parsedCode(d.deck_code).deck.cards };
}

const read = (file: string) => readArchetypeRules(readFileSync(file, 'utf8'), catalogue(), file);

function print(file: string, r: ArchetypeCheck): void {
  const examples = (names: string[]) => (names.length ? ` (${names.join(', ')})` : '');
  console.log(`${file}: ${r.decks} decks`);
  for (const a of r.byRule) console.log(`  ${a.id}: ${a.decks}${examples(a.examples)}`);
  console.log(`  unclassified: ${r.unclassified.decks}${examples(r.unclassified.examples)}`);
  for (const t of r.twice) console.log(`  taken by two rules of one priority: ${t.deck} (${t.ids.join(', ')})`);
  if (r.changed.length) console.log(`  changed since the rules in use: ${r.changed.length}`);
  for (const c of r.changed.slice(0, 10)) console.log(`    ${c.deck}: ${c.from ?? 'none'} → ${c.to ?? 'none'}`);
}

export async function archetypesCheck(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { rules: { type: 'string' }, bulk: { type: 'string' }, json: { type: 'boolean' }, aws: { type: 'boolean' } },
  });
  const inUseFile = rulesInUseFile();
  const file = values.rules ?? inUseFile;
  let rules: ReturnType<typeof read>;
  let inUse: ReturnType<typeof read> | undefined;
  try {
    rules = read(file);
    inUse = file === inUseFile ? undefined : read(inUseFile);
  } catch (e) {
    if (!(e instanceof ArchetypeRulesError)) throw e;
    console.error(`deckctl: ${e.message}`);
    return 1;
  }
  if (!values.bulk) useStore(values.aws);
  const report = await checkArchetypes(rules, values.bulk ? bulkDecks(values.bulk) : libraryDecks(), inUse);
  if (values.json) console.log(JSON.stringify(report));
  else print(file, report);
  return report.twice.length > 0 ? 1 : 0;
}
