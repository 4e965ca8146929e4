/**
 * The archetype rules in use (contract §13.3): the newest period's of lib/archetypes/ for a catalogue of the game's
 * cards, the demo rules (lib/archetypes/demo.json, over the demo catalogue's invented cards) for the demo catalogue —
 * when the catalogue the service runs with holds every card they name; looked at once a catalogue. Not held (a
 * catalogue that lost a card a rule names): no archetype by rule, said once in the log. The files are the project's
 * own, each read whole by lib/rules/archetype-file.ts in its tests (its schema, each rule one some deck can meet): a
 * function bundles them and the classifier, not the checks.
 */
import { logger } from '#logger';
import { type ArchetypeAnswer, archetypeName, cardsOf } from '#rules/archetype-of.ts';
import type { ArchetypeRulesFile } from '#rules/archetypes.ts';
import type { Catalogue } from '#rules/catalogue.ts';
import newest from '../archetypes/2026-05.json' with { type: 'json' };
import demo from '../archetypes/demo.json' with { type: 'json' };
import { catalogue } from './load.ts';

/** The rules files a service may use, the game's and the demo's; the first is the newest period's (a test holds it so). */
export const RULES_FILES = [
  { file: 'lib/archetypes/2026-05.json', rules: newest, demo: false },
  { file: 'lib/archetypes/demo.json', rules: demo, demo: true },
] as const;

/**
 * Whether a catalogue is the demo one (scripts/make-demo-catalogue.ts: its cards are of sets named "Demo …"; the
 * game's are not): the cards the demo rules name are the demo's there. Its rules are the demo's, and the demo's are
 * never a catalogue of the game's — its invented cards' ids are ids the game's cards have too. Looked up card by card:
 * a compiled catalogue makes its card objects only when asked (every one, for `cards`).
 */
const DEMO_RULES_CARDS = (demo as ArchetypeRulesFile).archetypes.flatMap((a) => cardsOf(a).map(({ id }) => id));
const isDemo = (c: Catalogue): boolean => DEMO_RULES_CARDS.every((id) => c.get(id)?.set.startsWith('Demo ') === true);

/** A rules file that read, and where it is (relative to the project). */
export interface RulesInUse {
  file: string;
  rules: ArchetypeRulesFile;
}

const read = new WeakMap<Catalogue, { inUse?: RulesInUse; problems: string[] }>();

/** The rules file of a catalogue's kind when it reads against it, or none — with what the file that did not read said. */
export function rulesInUse(of: Catalogue = catalogue()): { inUse?: RulesInUse; problems: string[] } {
  const known = read.get(of);
  if (known) return known;
  const found: { inUse?: RulesInUse; problems: string[] } = { problems: [] };
  for (const { file, rules } of RULES_FILES.filter((f) => f.demo === isDemo(of))) {
    const named = rules as ArchetypeRulesFile;
    const lost = named.archetypes.flatMap((a) =>
      cardsOf(a)
        .filter(({ id }) => of.get(id) === undefined)
        .map(({ id }) => `${a.id} names the card ${id}, which the catalogue does not hold`),
    );
    if (lost.length === 0) {
      found.inUse = { file, rules: named };
      break;
    }
    found.problems.push(`${file}: ${lost.join('; ')}`);
  }
  if (!found.inUse) logger.warn('no archetype rules read against the catalogue in use', { problems: found.problems });
  read.set(of, found);
  return found;
}

/** The rules in use against a catalogue (the catalogue in use when none is given), or undefined. */
export const archetypeRules = (of: Catalogue = catalogue()): ArchetypeRulesFile | undefined => rulesInUse(of).inUse?.rules;

/**
 * A deck's kept archetype (lib/rules/deck-model.ts KeptArchetype) named in a language: a rule of the rules in use by
 * its name there (English where it has none); any other (a cluster's, a rule no longer in use) as it was kept.
 */
export function archetypeIn(
  kept: ArchetypeAnswer | null | undefined,
  language: string,
  of: Catalogue = catalogue(),
): ArchetypeAnswer | null {
  if (!kept) return null;
  const rule = kept.by === 'rule' ? archetypeRules(of)?.archetypes.find((a) => a.id === kept.id) : undefined;
  return rule ? { ...kept, name: archetypeName(rule, language) } : kept;
}
