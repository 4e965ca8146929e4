/**
 * A deck's archetype by rule (contract §13.3), pure and lean: the first archetype of a rules file that takes a deck —
 * by priority, lower first, then the file's order — and its name in a language. No schema here: a function that
 * answers a deck's archetype bundles this and its rules, not the rules' checks (lib/rules/archetypes.ts).
 */
import type { CardCount } from './deck-code.ts';

/** A rule as the classifier reads it (lib/rules/archetypes.ts declares a rules file; each of its rules is one). */
export interface Rule {
  id: string;
  names: { readonly en?: string };
  main: string;
  ally: string;
  priority: number;
  holds?: readonly { card: string; min: number }[];
  one_of?: readonly { cards: readonly string[]; min: number }[];
  without?: readonly string[];
}
/** Rules as the classifier reads them. */
export interface Rules<R extends Rule = Rule> {
  archetypes: readonly R[];
}

/** A deck as a rule reads it: its nations and its cards. */
export interface Classified {
  main: string;
  ally: string;
  cards: readonly CardCount[];
}

/** A deck's copies of each card. */
const copiesOf = (deck: Classified): ReadonlyMap<string, number> => {
  const copies = new Map<string, number>();
  for (const c of deck.cards) copies.set(c.card_id, (copies.get(c.card_id) ?? 0) + c.count);
  return copies;
};

/** Whether an archetype takes a deck (its copies of each card given: copiesOf). */
function takes(a: Rule, deck: Classified, copies: ReadonlyMap<string, number>): boolean {
  if (a.main !== deck.main || (a.ally !== 'any' && a.ally !== deck.ally)) return false;
  const held = (id: string) => copies.get(id) ?? 0;
  return (
    (a.holds ?? []).every((h) => held(h.card) >= h.min) &&
    (a.one_of ?? []).every((o) => o.cards.reduce((n, id) => n + held(id), 0) >= o.min) &&
    (a.without ?? []).every((id) => held(id) === 0)
  );
}

/** The archetypes that take a deck, in the order they are tried (priority, then the file's order). */
export function takenBy<R extends Rule>(rules: Rules<R>, deck: Classified): R[] {
  const copies = copiesOf(deck);
  return rules.archetypes
    .map((a, i) => ({ a, i }))
    .filter(({ a }) => takes(a, deck, copies))
    .sort((x, y) => x.a.priority - y.a.priority || x.i - y.i)
    .map(({ a }) => a);
}

/** A deck's archetype by rule: the first that takes it, or undefined. */
export const archetypeOf = <R extends Rule>(rules: Rules<R>, deck: Classified): R | undefined => takenBy(rules, deck)[0];

/** An archetype's name in a language: its own there, else English. */
export const archetypeName = (a: Rule, language: string): string =>
  (Object.hasOwn(a.names, language) ? (a.names as Record<string, string | undefined>)[language] : undefined) ?? (a.names.en as string);

/** A deck's archetype as an answer shows it (contract §13.3): its id, its name in the language asked, and how it was found. */
export interface ArchetypeAnswer {
  id: string;
  name: string;
  by: 'rule' | 'cluster';
}

/** A deck's archetype by the rules given (none: null), named in a language. */
export function archetypeAnswer(rules: Rules | undefined, deck: Classified, language: string): ArchetypeAnswer | null {
  const a = rules && archetypeOf(rules, deck);
  return a ? { id: a.id, name: archetypeName(a, language), by: 'rule' } : null;
}

/**
 * The archetype a deck keeps under the rules given (contract §13.3): the first rule's that takes it (named in English,
 * as a deck keeps it), else the cluster it was given, else none. With no rules (none read against the catalogue: a card
 * a rule names left it), what it was given stays: a write does not take away what no rule can say again.
 */
export function keptArchetype(
  rules: Rules | undefined,
  deck: Classified,
  kept: ArchetypeAnswer | null | undefined,
): ArchetypeAnswer | null {
  if (!rules) return kept ?? null;
  return archetypeAnswer(rules, deck, 'en') ?? (kept?.by === 'cluster' ? kept : null);
}

/** Every card a rule names, with the path of its value in the rule. */
export const cardsOf = (a: Rule): { id: string; at: string }[] => [
  ...(a.holds ?? []).map((h, i) => ({ id: h.card, at: `holds.${i}.card` })),
  ...(a.one_of ?? []).flatMap((o, i) => o.cards.map((id, j) => ({ id, at: `one_of.${i}.cards.${j}` }))),
  ...(a.without ?? []).map((id, i) => ({ id, at: `without.${i}` })),
];
