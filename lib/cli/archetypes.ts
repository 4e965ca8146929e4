/**
 * `deckctl archetypes check [--rules FILE] [--bulk FILE] [--json] [--aws]`: a rules file (default: the rules in use,
 * the newest period's of lib/archetypes/) read against the catalogue in use and applied to the public library (or to a
 * bulk `decks` file: NDJSON, gzip or not, read a line at a time), streamed: the decks each rule takes, those none
 * takes, those two rules of one priority take, and those whose archetype differs from what the rules in use give — a
 * few of each named. Exit 1 when the file does not read (the line named), a bulk line is not a deck (its line named),
 * or two rules of one priority take a deck.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import * as v from 'valibot';
import { rulesInUse } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { readArchetypeRules } from '#rules/archetype-file.ts';
import { type ArchetypeCheck, ArchetypeRulesError, type ArchetypeRulesFile, type CheckedDeck, checkArchetypes } from '#rules/archetypes.ts';
import { COPY_LIMIT } from '#rules/deck-rules.ts';
import { FACTION_IDS, MAIN_FACTION_IDS } from '#rules/factions.ts';
import { SHARE_SLUG } from '#rules/ids.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import { allPublicDecks } from '#store/decks.ts';
import { useStore } from './accounts.ts';
import { UsageError } from './usage.ts';

/** The project's root: the rules files in use are named from it (lib/catalogue/archetypes.ts RULES_FILES). */
const ROOT = join(import.meta.dirname, '../..');

/** A line of a bulk `decks` file, as far as a check reads it (the file's schema is BulkDeck: lib/shapes/responses.ts). */
const BulkLine = v.object({
  share_slug: v.pipe(v.string(), v.regex(SHARE_SLUG, 'share_slug is a share slug')),
  main_faction: v.picklist(MAIN_FACTION_IDS as string[]),
  ally_faction: v.picklist(FACTION_IDS as string[]),
  cards: v.pipe(
    v.array(
      v.object({
        card_id: v.string(),
        count: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Math.max(...Object.values(COPY_LIMIT)))),
      }),
    ),
    v.check((cards) => new Set(cards.map((c) => c.card_id)).size === cards.length, 'a card is listed once'),
  ),
});

/** A bulk `decks` file's decks (gzip or not), a line at a time; a line that is not a deck stops the check, named. */
async function* bulkDecks(file: string): AsyncGenerator<CheckedDeck> {
  let n = 0;
  let gzipped = false;
  let streams: Readable[] = [];
  const failed = (at: string, why: string) => new ArchetypeRulesError(`${file}${at}: ${why}`);
  try {
    const head = Buffer.alloc(2);
    for await (const chunk of createReadStream(file, { start: 0, end: 1 })) (chunk as Buffer).copy(head);
    const raw = createReadStream(file);
    gzipped = head[0] === 0x1f && head[1] === 0x8b;
    const text: Readable = gzipped ? raw.pipe(createGunzip()) : raw;
    raw.on('error', (e) => text.destroy(e));
    // Heard here as well as by the lines' reader: a stream that fails after the check stopped reading is no crash.
    text.on('error', () => {});
    streams = [raw, text];
    for await (const line of createInterface({ input: text, crlfDelay: Number.POSITIVE_INFINITY })) {
      n++;
      const body = (n === 1 ? line.replace(/^\uFEFF/, '') : line).trim();
      if (!body) continue;
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch (e) {
        throw failed(`:${n}`, `not JSON (${(e as Error).message})`);
      }
      const parsed = v.safeParse(BulkLine, json);
      if (!parsed.success) {
        const issue = parsed.issues[0] as v.BaseIssue<unknown>;
        throw failed(`:${n}`, `not a deck: ${v.getDotPath(issue) ?? '(the line)'}: ${issue.message}`);
      }
      const d = parsed.output;
      yield { name: d.share_slug, main: d.main_faction, ally: d.ally_faction, cards: d.cards };
    }
  } catch (e) {
    if (e instanceof ArchetypeRulesError) throw e;
    throw failed(gzipped ? ' (gzip)' : '', `could not be read (${(e as Error).message})`);
  } finally {
    for (const stream of streams) stream.destroy();
  }
}

async function* libraryDecks(): AsyncGenerator<CheckedDeck> {
  for await (const d of allPublicDecks())
    yield { name: d.share_slug, main: d.main_faction, ally: d.ally_faction, cards: parsedCode(d.deck_code).deck.cards };
}

/** A rules file read against the catalogue in use; a card the demo catalogue lacks is said to be the demo's. */
function read(file: string): ArchetypeRulesFile {
  try {
    return readArchetypeRules(readFileSync(file, 'utf8'), catalogue(), file);
  } catch (e) {
    if (e instanceof ArchetypeRulesError && !process.env.CATALOGUE_FILE && /catalogue does not hold/.test(e.message))
      throw new ArchetypeRulesError(`${e.message} (the catalogue in use is the demo one: set CATALOGUE_FILE to a real catalogue)`);
    if ((e as { code?: string }).code === 'ENOENT') throw new ArchetypeRulesError(`${file}: no such file`);
    throw e;
  }
}

function print(file: string, r: ArchetypeCheck, inUseProblem?: string): void {
  // Share slugs are [A-Za-z0-9]{12} (the bulk lines are checked): nothing here reaches the terminal as a control.
  const examples = (names: string[]) => (names.length ? ` (${names.join(', ')})` : '');
  console.log(`${file}: ${r.decks} decks, ${r.classified} classified by rule`);
  for (const a of r.byRule) console.log(`  ${a.id}: ${a.decks}${examples(a.examples)}`);
  console.log(`  unclassified: ${r.unclassified.decks}${examples(r.unclassified.examples)}`);
  if (r.twice.decks) console.log(`  taken by two rules of one priority: ${r.twice.decks}`);
  for (const t of r.twice.examples) console.log(`    ${t.deck} (${t.ids.join(', ')})`);
  if (inUseProblem) console.log(`  not compared with the rules in use, which do not read: ${inUseProblem}`);
  else if (r.changed.decks) console.log(`  changed since the rules in use: ${r.changed.decks}`);
  for (const c of r.changed.examples) console.log(`    ${c.deck}: ${c.from ?? 'none'} → ${c.to ?? 'none'}`);
}

export async function archetypesCheck(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { rules: { type: 'string' }, bulk: { type: 'string' }, json: { type: 'boolean' }, aws: { type: 'boolean' } },
  });
  if (values.bulk === '' || values.rules === '') throw new UsageError('--bulk and --rules each take a file');
  try {
    // The rules in use: the first of the service's rules files that reads against the catalogue in use.
    const found = rulesInUse();
    const inUseFile = found.inUse && join(ROOT, found.inUse.file);
    const file = values.rules ?? inUseFile;
    const unread = found.problems.join('; ');
    if (file === undefined) throw new ArchetypeRulesError(`no rules file reads against the catalogue in use: ${unread}`);
    const rules = read(file);
    // The rules in use may no longer read (a new catalogue): the proposal, which may be their fix, is checked all the same.
    const inUse: ArchetypeRulesFile | undefined = file === inUseFile ? undefined : found.inUse?.rules;
    const inUseProblem = file !== inUseFile && !found.inUse ? unread : undefined;
    if (values.bulk === undefined) useStore(values.aws);
    const report = await checkArchetypes(rules, values.bulk === undefined ? libraryDecks() : bulkDecks(values.bulk), inUse);
    if (values.json) console.log(JSON.stringify(inUseProblem ? { ...report, in_use_unread: inUseProblem } : report));
    else print(file, report, inUseProblem);
    return report.twice.decks > 0 ? 1 : 0;
  } catch (e) {
    if (!(e instanceof ArchetypeRulesError)) throw e;
    console.error(`deckctl: ${e.message.replace(/\s+/g, ' ')}`);
    return 1;
  }
}
