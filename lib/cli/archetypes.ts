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
import { RULES_FILES, rulesInUse } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { readArchetypeRules } from '#rules/archetype-file.ts';
import { keptArchetype } from '#rules/archetype-of.ts';
import { type ArchetypeCheck, ArchetypeRulesError, type ArchetypeRulesFile, type CheckedDeck, checkArchetypes } from '#rules/archetypes.ts';
import { DeckCodeError } from '#rules/deck-code.ts';
import { COPY_LIMIT } from '#rules/deck-rules.ts';
import { FACTION_IDS, MAIN_FACTION_IDS } from '#rules/factions.ts';
import { SHARE_SLUG } from '#rules/ids.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import { atMost } from '#store/at-most.ts';
import { allDecks, allPublicDecks, countReclassified, reclassifyAsRead } from '#store/decks.ts';
import { clusterArchetypes } from '#workers/clusters.ts';
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

/**
 * Whether the catalogue in use is the demo one (its rules the demo's), said on stderr: the demo rules name the demo
 * catalogue's invented cards by ids the game's cards have too — never a deployed library's.
 */
function demoAgainstAws(): boolean {
  const file = rulesInUse().inUse?.file;
  if (!RULES_FILES.find((f) => f.file === file)?.demo) return false;
  console.error(
    'deckctl: the catalogue in use is the demo one, whose rules are not the service’s: set CATALOGUE_FILE to the catalogue the service runs with',
  );
  return true;
}

/**
 * `deckctl archetypes cluster [--json] [--aws]`: the daily cluster job now (lib/workers/clusters.ts): the public decks
 * no rule takes clustered, each given its cluster's archetype or none. Prints the decks read, clustered, the clusters,
 * and the decks written. Exit 1 against a deployed store with the demo catalogue.
 */
export async function archetypesCluster(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, aws: { type: 'boolean' } } });
  if (values.aws && demoAgainstAws()) return 1;
  useStore(values.aws);
  const run = await clusterArchetypes();
  console.log(
    values.json
      ? JSON.stringify(run)
      : `${run.read} public decks read, ${run.decks} no rule takes: ${run.clustered} in ${run.clusters} clusters; ${run.reclassified} reclassified, ${run.unchanged} unchanged, ${run.changed_meanwhile} changed meanwhile; ${run.scan_read_units} read units`,
  );
  return 0;
}

/** Decks `apply` reclassifies at once: a few, as the scan yields them (a large table in minutes, never a flood). */
const DECKS_AT_ONCE = 8;

/**
 * `deckctl archetypes apply [--json] [--aws]`: every stored deck (public or not) given the archetype the rules in use
 * give it (a deck no rule takes keeps its cluster, or none), with its search entries — written only where it differs,
 * only while the deck is as read (no version kept: its content is unchanged). Idempotent (a second run writes nothing)
 * and so resumable: stopped anywhere, run it again. Exit 1 when no rules file reads against the catalogue in use.
 */
export async function archetypesApply(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, aws: { type: 'boolean' } } });
  const found = rulesInUse();
  if (!found.inUse) {
    console.error(`deckctl: no rules file reads against the catalogue in use: ${found.problems.join('; ')}`);
    return 1;
  }
  if (values.aws && demoAgainstAws()) return 1;
  const rules = found.inUse.rules;
  useStore(values.aws);
  const tally = { decks: 0, reclassified: 0, unchanged: 0, changed_meanwhile: 0, unreadable: 0 };
  await atMost(DECKS_AT_ONCE, allDecks(), async (scanned) => {
    tally.decks++;
    try {
      countReclassified(
        tally,
        await reclassifyAsRead(scanned, (deck) => keptArchetype(rules, parsedCode(deck.deck_code).deck, deck.archetype)),
      );
    } catch (e) {
      if (!(e instanceof DeckCodeError)) throw e;
      // A stored code that does not decode (none should): left as it is, counted, and the walk goes on.
      tally.unreadable++;
    }
  });
  console.log(
    values.json
      ? JSON.stringify({ rules: found.inUse.file, ...tally })
      : `${found.inUse.file}: ${tally.decks} decks, ${tally.reclassified} reclassified, ${tally.unchanged} unchanged, ${tally.changed_meanwhile} changed meanwhile (run again), ${tally.unreadable} whose code does not decode`,
  );
  return 0;
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
