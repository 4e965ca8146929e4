/**
 * The archetype rules in use (contract §13.3): the newest period's of lib/archetypes/ for a catalogue of the game's
 * cards, the demo rules (lib/archetypes/demo.json, over the demo catalogue's invented cards) for the demo catalogue —
 * when they read against the catalogue the service runs with (its every card there, each rule one some deck can meet:
 * lib/rules/archetypes.ts checkArchetypeRules), read once a catalogue. Not reading (a catalogue that lost a card a rule
 * names): no archetype by rule, said once in the log.
 */
import { logger } from '#logger';
import { ArchetypeRulesError, type ArchetypeRulesFile, checkArchetypeRules } from '#rules/archetypes.ts';
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
 * Whether a catalogue is the demo one (scripts/make-demo-catalogue.ts: every card of a set named "Demo …"; the game
 * has none): its rules are the demo's, and the demo's are never a catalogue of the game's — its invented cards' ids
 * are ids the game's cards have too.
 */
const isDemo = (c: Catalogue): boolean => c.cards.length > 0 && c.cards.every((card) => card.set.startsWith('Demo '));

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
    try {
      found.inUse = { file, rules: checkArchetypeRules(rules, of, (path) => `${file}: ${path}`) };
      break;
    } catch (e) {
      if (!(e instanceof ArchetypeRulesError)) throw e;
      found.problems.push(e.message);
    }
  }
  if (!found.inUse) logger.warn('no archetype rules read against the catalogue in use', { problems: found.problems });
  read.set(of, found);
  return found;
}

/** The rules in use against a catalogue (the catalogue in use when none is given), or undefined. */
export const archetypeRules = (of: Catalogue = catalogue()): ArchetypeRulesFile | undefined => rulesInUse(of).inUse?.rules;
