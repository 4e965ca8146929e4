/**
 * Archetypes by rule (contract §13.3): rules as data, a file a period of the card pool (lib/archetypes/<period>.json;
 * its JSON Schema, made from ArchetypeRules below, beside it: rules.schema.json), read against the catalogue in use.
 * An archetype: its id, its names by language (English required), its main nation, an ally or any, its conditions —
 * cards it must hold (each with a least count: `holds`), one or more of a set with a least total (`one_of`), cards it
 * must not hold (`without`) — and its priority. A deck is the first archetype that takes it, by priority (lower
 * first; the file's order among equals). Pure: the file's text and a catalogue in, rules or a message naming the
 * line out.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import type { Catalogue } from './catalogue.ts';
import type { CardCount } from './deck-code.ts';
import { FACTION_IDS, type FactionId, MAIN_FACTION_IDS } from './factions.ts';
import { SERVED_LANGUAGES } from './languages.ts';

const Id = v.pipe(v.string(), v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'an id is lower-case words joined by -'), v.maxLength(64));
const Name = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(60));
const CardRef = v.pipe(v.string(), v.regex(/^[0-9A-Za-z_.:-]{1,64}$/, 'a card_id of the catalogue'));
const Count = (max: number) => v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max));

/** An archetype's names: English required, any other served language optional. */
const Names = v.strictObject(
  Object.fromEntries(SERVED_LANGUAGES.map(({ tag }) => [tag, tag === 'en' ? Name : v.optional(Name)])) as Record<string, typeof Name>,
);

const Archetype = v.pipe(
  v.strictObject({
    id: Id,
    names: Names,
    main: v.picklist(MAIN_FACTION_IDS as FactionId[]),
    ally: v.picklist([...FACTION_IDS, 'any'] as (FactionId | 'any')[]),
    /** Lower first: the first archetype of the lowest priority that takes a deck is its archetype. */
    priority: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000)),
    /** Cards the deck holds, each at least `min` copies. */
    holds: v.optional(v.pipe(v.array(v.strictObject({ card: CardRef, min: Count(4) })), v.maxLength(20))),
    /** Sets of cards the deck holds at least `min` copies of, together. */
    one_of: v.optional(
      v.pipe(
        v.array(v.strictObject({ cards: v.pipe(v.array(CardRef), v.minLength(1), v.maxLength(40)), min: Count(40) })),
        v.maxLength(10),
      ),
    ),
    /** Cards the deck holds none of. */
    without: v.optional(v.pipe(v.array(CardRef), v.maxLength(40))),
  }),
  v.check(
    (a) => (a.holds?.length ?? 0) + (a.one_of?.length ?? 0) > 0,
    'an archetype holds cards (holds or one_of): one that holds none would take every deck of its nation',
  ),
);

/** A rules file (its JSON Schema: lib/archetypes/rules.schema.json, made from this). */
export const ArchetypeRules = v.strictObject({
  $schema: v.optional(v.string()),
  /** The card pool's period: the month it began (YYYY-MM). */
  period: v.pipe(v.string(), v.regex(/^\d{4}-(?:0[1-9]|1[0-2])$/, 'a period is the month its pool began: YYYY-MM')),
  archetypes: v.pipe(v.array(Archetype), v.maxLength(500)),
});
/**
 * The JSON Schema of a rules file, as lib/archetypes/rules.schema.json holds it (what an editor checks a proposed rule
 * with; what no JSON Schema says — an id given twice, a card the catalogue lacks, a rule that holds no card — the
 * service's read and `deckctl archetypes check` say).
 */
export const archetypeRulesSchema = (): string =>
  `${JSON.stringify(
    {
      ...toJsonSchema(ArchetypeRules, { target: 'draft-2020-12', errorMode: 'ignore' }),
      title: 'Deck Library archetype rules: a period of the card pool',
    },
    null,
    2,
  )}\n`;

export type ArchetypeRulesFile = v.InferOutput<typeof ArchetypeRules>;
export type ArchetypeRule = ArchetypeRulesFile['archetypes'][number];

export class ArchetypeRulesError extends Error {
  override readonly name = 'ArchetypeRulesError';
}

/** The line (1-based) of the text where a JSON string value first appears, or undefined. */
const lineOf = (text: string, value: string): number | undefined => {
  const at = text.indexOf(JSON.stringify(value));
  return at < 0 ? undefined : text.slice(0, at).split('\n').length;
};

/** Every card a rule names, each with where (holds, one_of, without). */
const cardsOf = (a: ArchetypeRule): string[] => [
  ...(a.holds ?? []).map((h) => h.card),
  ...(a.one_of ?? []).flatMap((o) => o.cards),
  ...(a.without ?? []),
];

/**
 * A rules file read: its schema (the first issue, by its path), ids unique, and every card it names one the catalogue
 * holds and one a deck of the rule's nations may hold (its main nation's, the ally's — any but the main, for `any` —
 * or neutral); else an ArchetypeRulesError naming the line.
 */
export function readArchetypeRules(text: string, catalogue: Catalogue, file = 'the rules file'): ArchetypeRulesFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ArchetypeRulesError(`${file}: not JSON (${(e as Error).message})`);
  }
  const parsed = v.safeParse(ArchetypeRules, json);
  if (!parsed.success) {
    const issue = parsed.issues[0] as v.BaseIssue<unknown>;
    const path = v.getDotPath(issue) ?? '(the file)';
    throw new ArchetypeRulesError(`${file}: ${path}: ${issue.message}`);
  }
  const rules = parsed.output;
  const seen = new Set<string>();
  for (const a of rules.archetypes) {
    if (seen.has(a.id)) throw new ArchetypeRulesError(`${file}:${lineOf(text, a.id) ?? '?'}: the id ${a.id} is given twice`);
    seen.add(a.id);
    for (const id of cardsOf(a)) {
      const card = catalogue.get(id);
      const at = `${file}:${lineOf(text, id) ?? '?'}`;
      if (!card) throw new ArchetypeRulesError(`${at}: ${a.id} names the card ${id}, which the catalogue does not hold`);
      if (card.derived)
        throw new ArchetypeRulesError(`${at}: ${a.id} names ${card.name} (${id}), which is spawned by other cards: never in a deck`);
      const nations = [card.faction, ...(card.exile ? [card.exile] : [])];
      const fits = nations.some((f) => f === 'neutral' || f === a.main || (a.ally === 'any' ? f !== a.main : f === a.ally));
      if (!fits)
        throw new ArchetypeRulesError(`${at}: ${a.id} names ${card.name} (${id}, ${card.faction}), which no deck of its nations holds`);
    }
  }
  return rules;
}

/** A deck as a rule reads it: its nations and its cards. */
export interface Classified {
  main: string;
  ally: string;
  cards: readonly CardCount[];
}

/** Whether an archetype takes a deck. */
export function takes(a: ArchetypeRule, deck: Classified): boolean {
  if (a.main !== deck.main || (a.ally !== 'any' && a.ally !== deck.ally)) return false;
  const copies = new Map(deck.cards.map((c) => [c.card_id, c.count]));
  const held = (id: string) => copies.get(id) ?? 0;
  return (
    (a.holds ?? []).every((h) => held(h.card) >= h.min) &&
    (a.one_of ?? []).every((o) => o.cards.reduce((n, id) => n + held(id), 0) >= o.min) &&
    (a.without ?? []).every((id) => held(id) === 0)
  );
}

/** The archetypes that take a deck, in the order they are tried (priority, then the file's order). */
export function takenBy(rules: ArchetypeRulesFile, deck: Classified): ArchetypeRule[] {
  return rules.archetypes
    .map((a, i) => ({ a, i }))
    .filter(({ a }) => takes(a, deck))
    .sort((x, y) => x.a.priority - y.a.priority || x.i - y.i)
    .map(({ a }) => a);
}

/** A deck's archetype by rule: the first that takes it, or undefined. */
export const archetypeOf = (rules: ArchetypeRulesFile, deck: Classified): ArchetypeRule | undefined => takenBy(rules, deck)[0];

/** An archetype's name in a language: its own there, else English. */
export const archetypeName = (a: ArchetypeRule, language: string): string =>
  (a.names as Record<string, string | undefined>)[language] ?? (a.names.en as string);

/** A deck as `deckctl archetypes check` reads it: where it comes from (a share slug, a bulk line) and what it holds. */
export interface CheckedDeck extends Classified {
  name: string;
}

/** At most this many decks named as examples of each line of a check. */
export const CHECK_EXAMPLES = 3;

/** What a check of rules against decks finds (`deckctl archetypes check`). */
export interface ArchetypeCheck {
  decks: number;
  /** Each archetype of the rules: the decks it takes, and a few of them by name. */
  byRule: { id: string; name: string; decks: number; examples: string[] }[];
  unclassified: { decks: number; examples: string[] };
  /** Decks two rules of one priority take (the file's order chose between them): the deck and the rules. */
  twice: { deck: string; ids: string[] }[];
  /** Decks whose archetype differs from the one the rules in use give them. */
  changed: { deck: string; from: string | null; to: string | null }[];
}

/** Rules checked against decks (streamed: a deck at a time), and against the rules in use (`inUse`) where given. */
export async function checkArchetypes(
  rules: ArchetypeRulesFile,
  decks: Iterable<CheckedDeck> | AsyncIterable<CheckedDeck>,
  inUse?: ArchetypeRulesFile,
): Promise<ArchetypeCheck> {
  const counts = new Map(
    rules.archetypes.map((a) => [a.id, { id: a.id, name: archetypeName(a, 'en'), decks: 0, examples: [] as string[] }]),
  );
  const out: ArchetypeCheck = { decks: 0, byRule: [...counts.values()], unclassified: { decks: 0, examples: [] }, twice: [], changed: [] };
  const note = (line: { decks: number; examples: string[] }, deck: string) => {
    line.decks++;
    if (line.examples.length < CHECK_EXAMPLES) line.examples.push(deck);
  };
  for await (const deck of decks) {
    out.decks++;
    const taken = takenBy(rules, deck);
    const first = taken[0];
    if (first) note(counts.get(first.id) as { decks: number; examples: string[] }, deck.name);
    else note(out.unclassified, deck.name);
    const tied = taken.filter((a) => a.priority === first?.priority);
    if (tied.length > 1) out.twice.push({ deck: deck.name, ids: tied.map((a) => a.id) });
    if (inUse) {
      const was = archetypeOf(inUse, deck)?.id ?? null;
      if (was !== (first?.id ?? null)) out.changed.push({ deck: deck.name, from: was, to: first?.id ?? null });
    }
  }
  return out;
}
