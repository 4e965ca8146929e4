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
import { archetypeName, archetypeOf, type Classified, cardsOf, takenBy } from './archetype-of.ts';
import type { Card, Catalogue } from './catalogue.ts';
import { COPY_LIMIT } from './deck-rules.ts';
import { FACTION_IDS, type FactionId, factionById, MAIN_FACTION_IDS } from './factions.ts';
import { ARCHETYPE_ID, ARCHETYPE_ID_CHARS, ARCHETYPE_NAME_CHARS, PERIOD } from './ids.ts';
import { INVISIBLE_CLASS } from './invisible.ts';
import { SERVED_LANGUAGES } from './languages.ts';

const Id = v.pipe(
  v.string(),
  v.regex(ARCHETYPE_ID, 'an id is lower-case words joined by -'),
  v.maxLength(ARCHETYPE_ID_CHARS),
  // A cluster's id is `cluster-<nation>-<digest>` (lib/rules/clusters.ts): a rule's is never one.
  v.check((id) => !id.startsWith('cluster-'), 'an id starting with cluster- is a cluster’s'),
);
/**
 * A name as written (not trimmed): starts and ends with a visible character — not a space or a character that draws
 * nothing (a Hangul filler, the blank braille pattern), nor starts with a combining mark — and holds none a reader
 * cannot see: control, format (an escape, a direction override, a zero-width space), line or paragraph separator,
 * private use, unassigned (contract §9.1, as tags and display names), nor a lone surrogate: it is shown on pages,
 * images and in Discord. At most 60 UTF-16 units (a JSON Schema counts code points: a name of characters beyond the BMP may pass
 * an editor's check and not this one).
 */
const UNSEEN = `${INVISIBLE_CLASS}\\p{Cs}`;
const BLANK = String.raw`\s\u115F\u1160\u3164\uFFA0\u2800`;
const Name = v.pipe(
  v.string(),
  v.regex(
    new RegExp(`^[^${BLANK}\\p{M}${UNSEEN}](?:[^${UNSEEN}]*[^${BLANK}${UNSEEN}])?$`, 'u'),
    'a name starts and ends with a visible character and holds no control, format, separator, private-use or unassigned character',
  ),
  v.maxLength(ARCHETYPE_NAME_CHARS),
);
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
    holds: v.optional(v.pipe(v.array(v.strictObject({ card: CardRef, min: Count(4) })), v.minLength(1), v.maxLength(20))),
    /** Sets of cards the deck holds at least `min` copies of, together. */
    one_of: v.optional(
      v.pipe(
        v.array(v.strictObject({ cards: v.pipe(v.array(CardRef), v.minLength(1), v.maxLength(40)), min: Count(40) })),
        v.minLength(1),
        v.maxLength(10),
      ),
    ),
    /** Cards the deck holds none of. */
    without: v.optional(v.pipe(v.array(CardRef), v.minLength(1), v.maxLength(40))),
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
  period: v.pipe(v.string(), v.regex(PERIOD, 'a period is the month its pool began: YYYY-MM')),
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

export class ArchetypeRulesError extends Error {
  override readonly name = 'ArchetypeRulesError';
}

/**
 * Rules as JSON, checked (or an ArchetypeRulesError naming, by `where`, the value's place): its schema, ids unique; then
 * each rule one that can take a deck — its ally not its main nation, every card it names one the catalogue holds that
 * a deck may hold (not spawned, not a headquarters) of the rule's nations (its main nation's, the ally's — any but the
 * main, for `any` — or neutral), within the copies its rarity allows, none both required and refused, none twice in
 * one set, and each set's least total within what its cards allow. A file's text is read by archetype-file.ts (its
 * lines named); a service reads its bundled rules here.
 */
export function checkArchetypeRules(json: unknown, catalogue: Catalogue, where: (path: string) => string): ArchetypeRulesFile {
  const parsed = v.safeParse(ArchetypeRules, json);
  if (!parsed.success) {
    const issue = parsed.issues[0] as v.BaseIssue<unknown>;
    const path = v.getDotPath(issue) ?? '';
    throw new ArchetypeRulesError(`${where(path)}: ${path || '(the file)'}: ${issue.message}`);
  }
  const rules = parsed.output;
  const seen = new Set<string>();
  for (const [n, a] of rules.archetypes.entries()) {
    const at = (path: string) => `${where(`archetypes.${n}.${path}`)}: ${a.id}`;
    if (seen.has(a.id)) throw new ArchetypeRulesError(`${at('id')}: this id is given to an archetype before it`);
    seen.add(a.id);
    if (a.ally === a.main) throw new ArchetypeRulesError(`${at('ally')}: its ally is its main nation: no deck is`);
    const nation = factionById(a.main)?.name as string;
    if (!a.names.en?.startsWith(`${nation} · `))
      throw new ArchetypeRulesError(
        `${at('names.en')}: its English name starts with its main nation, "${nation} · ", then what its cards are`,
      );
    const cards = cardsOf(a);
    for (const { id, at: where } of cards) {
      const card = catalogue.get(id);
      if (!card) throw new ArchetypeRulesError(`${at(where)} names the card ${id}, which the catalogue does not hold`);
      if (card.derived)
        throw new ArchetypeRulesError(`${at(where)} names ${card.name} (${id}), which is spawned by other cards: never in a deck`);
      if (card.type === 'headquarters')
        throw new ArchetypeRulesError(`${at(where)} names ${card.name} (${id}), a headquarters: never in a deck's cards`);
      const nations = [card.faction, ...(card.exile ? [card.exile] : [])];
      const fits = nations.some((f) => f === 'neutral' || f === a.main || (a.ally === 'any' ? f !== a.main : f === a.ally));
      if (!fits)
        throw new ArchetypeRulesError(`${at(where)} names ${card.name} (${id}, ${card.faction}), which no deck of its nations holds`);
    }
    const most = (id: string) => COPY_LIMIT[(catalogue.get(id) as Card).rarity];
    for (const [i, h] of (a.holds ?? []).entries())
      if (h.min > most(h.card))
        throw new ArchetypeRulesError(`${at(`holds.${i}.min`)} asks ${h.min} copies of ${h.card}: a deck holds at most ${most(h.card)}`);
    for (const [i, o] of (a.one_of ?? []).entries()) {
      if (new Set(o.cards).size < o.cards.length) throw new ArchetypeRulesError(`${at(`one_of.${i}.cards`)} names a card twice in one set`);
      const total = o.cards.reduce((sum, id) => sum + most(id), 0);
      if (o.min > total) throw new ArchetypeRulesError(`${at(`one_of.${i}.min`)} asks ${o.min} copies of a set whose cards allow ${total}`);
    }
    const required = new Set((a.holds ?? []).map((h) => h.card));
    for (const [i, id] of (a.without ?? []).entries())
      if (required.has(id)) throw new ArchetypeRulesError(`${at(`without.${i}`)} refuses ${id}, which it also requires`);
  }
  return rules;
}

/** A deck as `deckctl archetypes check` reads it: where it comes from (a share slug, a bulk line) and what it holds. */
export interface CheckedDeck extends Classified {
  name: string;
}

/** At most this many decks named as examples of each line of a check (the report stays small whatever the library). */
export const CHECK_EXAMPLES = 3;
/** At most this many decks a tie or a change lists. */
export const CHECK_LISTED = 20;

/** A count of decks, and the first few. */
interface Listed<T> {
  decks: number;
  examples: T[];
}

/** What a check of rules against decks finds (`deckctl archetypes check`). */
export interface ArchetypeCheck {
  decks: number;
  /** Decks a rule takes. */
  classified: number;
  /** Each archetype of the rules: the decks it takes, and a few of them by name. */
  byRule: ({ id: string; name: string } & Listed<string>)[];
  unclassified: Listed<string>;
  /** Decks two rules of one priority take (the file's order chose between them): the deck and the rules. */
  twice: Listed<{ deck: string; ids: string[] }>;
  /** Decks whose archetype differs from the one the rules in use give them (when those were given). */
  changed: Listed<{ deck: string; from: string | null; to: string | null }>;
}

const note = <T>(line: Listed<T>, example: T, most = CHECK_EXAMPLES) => {
  line.decks++;
  if (line.examples.length < most) line.examples.push(example);
};

/** Rules checked against decks (streamed: a deck at a time, the report bounded), and against the rules in use (`inUse`) where given. */
export async function checkArchetypes(
  rules: ArchetypeRulesFile,
  decks: Iterable<CheckedDeck> | AsyncIterable<CheckedDeck>,
  inUse?: ArchetypeRulesFile,
): Promise<ArchetypeCheck> {
  const byRule = new Map(
    rules.archetypes.map((a) => [a.id, { id: a.id, name: archetypeName(a, 'en'), decks: 0, examples: [] as string[] }]),
  );
  const out: ArchetypeCheck = {
    decks: 0,
    classified: 0,
    byRule: [...byRule.values()],
    unclassified: { decks: 0, examples: [] },
    twice: { decks: 0, examples: [] },
    changed: { decks: 0, examples: [] },
  };
  for await (const deck of decks) {
    out.decks++;
    const taken = takenBy(rules, deck);
    const first = taken[0];
    if (first) {
      out.classified++;
      note(byRule.get(first.id) as Listed<string>, deck.name);
    } else note(out.unclassified, deck.name);
    const tied = taken.filter((a) => a.priority === first?.priority);
    if (tied.length > 1) note(out.twice, { deck: deck.name, ids: tied.map((a) => a.id) }, CHECK_LISTED);
    if (inUse) {
      const was = archetypeOf(inUse, deck)?.id ?? null;
      if (was !== (first?.id ?? null)) note(out.changed, { deck: deck.name, from: was, to: first?.id ?? null }, CHECK_LISTED);
    }
  }
  return out;
}
