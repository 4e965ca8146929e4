/**
 * What the library plays by archetype (contract §13.3), pure: each counted archetype named and given its nation and
 * key cards by the rules (a rule's: the cards it holds, and those of its sets) or the clusters (their core and tech);
 * its decks' share of all public decks (4 decimals); most decks first, then id. An id neither names (a retired rule, a
 * cluster the last run did not make: its decks not yet reclassified) is left out. Its trend: its share of each week the
 * trend keeps (lib/rules/archetype-trend.ts; the week in progress its share now).
 */
import { archetypeName, type Rule, type Rules } from './archetype-of.ts';
import { sharesOf, type Trend } from './archetype-trend.ts';
import type { FactionId } from './factions.ts';

/** The sample decks an archetype's figures show: its most viewed public decks. */
export const SAMPLE_DECKS = 3;

/** A cluster as the figures read it. */
export interface NamedCluster {
  name: string;
  main: string;
  core: readonly string[];
  tech: readonly string[];
}

const keyCardsOfRule = (a: Rule) => ({
  core: (a.holds ?? []).map((h) => h.card),
  tech: [...new Set((a.one_of ?? []).flatMap((o) => o.cards))],
});

export function archetypeFigures(given: {
  decks: number;
  counts: ReadonlyMap<string, number>;
  rules: Rules | undefined;
  clusters: ReadonlyMap<string, NamedCluster>;
  trend: Trend;
  language: string;
  main?: string;
}) {
  const { decks, counts, rules, clusters, trend, language, main } = given;
  const rows = [...counts].flatMap(([id, n]) => {
    if (n <= 0) return [];
    const rule = rules?.archetypes.find((a) => a.id === id);
    const cluster = rule ? undefined : clusters.get(id);
    const named = rule
      ? { name: archetypeName(rule, language), by: 'rule' as const, main_faction: rule.main as FactionId, key_cards: keyCardsOfRule(rule) }
      : cluster
        ? {
            name: cluster.name,
            by: 'cluster' as const,
            main_faction: cluster.main as FactionId,
            key_cards: { core: [...cluster.core], tech: [...cluster.tech] },
          }
        : undefined;
    if (!named || (main !== undefined && named.main_faction !== main)) return [];
    return [
      {
        id,
        name: named.name,
        by: named.by,
        main_faction: named.main_faction,
        decks: n,
        share: decks > 0 ? Math.round((n / decks) * 10_000) / 10_000 : 0,
        key_cards: named.key_cards,
        trend: sharesOf(trend, id),
      },
    ];
  });
  return rows.sort((a, b) => b.decks - a.decks || (a.id < b.id ? -1 : 1));
}
