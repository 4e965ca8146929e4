/**
 * Clusters for the public decks no archetype rule takes (contract §13.3), pure and deterministic: the same decks, in
 * any order, make the same clusters with the same ids.
 *
 * - A deck's anchors are its ANCHORS cards of its main nation's own (not its ally's, not neutral) with the most copies
 *   — ties to the rarer (the catalogue's rarity, given as `rank`), then to the lower card id. A deck's anchors are its
 *   own: another deck added or taken away never moves them.
 * - Decks of one main nation with the same anchors are a group; a group of at least MIN_DECKS decks is a cluster. Its
 *   signature (HSReplay's): its core cards, those at least CORE of its decks hold, and its tech cards, those at least
 *   TECH hold; its id is its nation's and its core's (a digest of the core's card ids), so it stays while its core
 *   does — two groups of one core are one cluster. It is named by its nation and its anchors.
 * - A deck of a smaller group joins the cluster of its nation whose core it holds the largest share of, at least CORE
 *   (card overlap; ties to the lower id); a joining deck moves no cluster's signature (groups alone make those).
 * So one deck added changes no other deck's cluster unless a signature does: its group's core (the only one it
 * counts in) moves, or its group reaches MIN_DECKS and becomes a cluster others may join.
 */
import { createHash } from 'node:crypto';
import type { CardCount } from './deck-code.ts';

/** The clustering's parameters, once. */
export const CLUSTERING = {
  /** Cards a deck is grouped by. */
  anchors: 2,
  /** Decks a group needs to be a cluster. */
  minDecks: 5,
  /** Share of a cluster's decks a core card is in (and of a core a joining deck holds). */
  core: 0.8,
  /** Share of a cluster's decks a tech card is in. */
  tech: 0.3,
} as const;

/** A deck as clustering reads it: what it is written back by, its main nation, its cards. */
export interface ClusterDeck<R> {
  ref: R;
  main: string;
  cards: readonly CardCount[];
}

/** A cluster: its id, nation, signature (core and tech cards, each by card id in order), anchors and groups' decks. */
export interface Cluster {
  id: string;
  main: string;
  anchors: string[];
  core: string[];
  tech: string[];
  /** Decks of its groups (those that joined it aside). */
  decks: number;
}

/** What clustering reads of the catalogue: a card's nation, and how rare it is (higher: rarer); none for a card it lacks. */
export interface ClusterCatalogue {
  factionOf(cardId: string): string | undefined;
  rank(cardId: string): number;
}

/** A cluster's id: its nation and a digest of its core (lower-case hex: an archetype id's form). */
export const clusterId = (main: string, core: readonly string[]): string =>
  `cluster-${main}-${createHash('sha256')
    .update(`${main}\n${core.join(',')}`)
    .digest('hex')
    .slice(0, 12)}`;

/** A deck's anchors: its main nation's cards of the most copies, the rarer first, then by id; sorted by id. */
export function anchorsOf(deck: ClusterDeck<unknown>, catalogue: ClusterCatalogue): string[] {
  return deck.cards
    .filter((c) => catalogue.factionOf(c.card_id) === deck.main)
    .sort((a, b) => b.count - a.count || catalogue.rank(b.card_id) - catalogue.rank(a.card_id) || (a.card_id < b.card_id ? -1 : 1))
    .slice(0, CLUSTERING.anchors)
    .map((c) => c.card_id)
    .sort();
}

interface Group<R> {
  main: string;
  anchors: string[];
  members: ClusterDeck<R>[];
}

/** The cards at least `share` of a group's decks hold, by id. */
const heldBy = (members: readonly ClusterDeck<unknown>[], share: number, below = Number.POSITIVE_INFINITY): string[] => {
  const decks = new Map<string, number>();
  for (const m of members) for (const c of m.cards) decks.set(c.card_id, (decks.get(c.card_id) ?? 0) + 1);
  return [...decks]
    .filter(([, n]) => n >= share * members.length && n < below * members.length)
    .map(([id]) => id)
    .sort();
};

/**
 * The clusters of a library's decks that no rule takes, and each deck's cluster (by its ref), or none. `decks` is read
 * once; what is kept is each deck's ref, nation and cards until its group is known.
 */
export function clustersOf<R>(
  decks: Iterable<ClusterDeck<R>>,
  catalogue: ClusterCatalogue,
): { clusters: Cluster[]; clusterOf: Map<R, Cluster> } {
  const groups = new Map<string, Group<R>>();
  for (const deck of decks) {
    const anchors = anchorsOf(deck, catalogue);
    if (anchors.length === 0) continue;
    const key = `${deck.main}:${anchors.join(',')}`;
    const group = groups.get(key) ?? { main: deck.main, anchors, members: [] };
    group.members.push(deck);
    groups.set(key, group);
  }
  const byId = new Map<string, Cluster & { groupMembers: ClusterDeck<R>[] }>();
  const loose: ClusterDeck<R>[] = [];
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key) as Group<R>;
    if (group.members.length < CLUSTERING.minDecks) {
      loose.push(...group.members);
      continue;
    }
    const core = heldBy(group.members, CLUSTERING.core);
    const id = clusterId(group.main, core);
    const same = byId.get(id);
    if (same) same.groupMembers.push(...group.members);
    else byId.set(id, { id, main: group.main, anchors: group.anchors, core, tech: [], decks: 0, groupMembers: [...group.members] });
  }
  const clusters = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  const clusterOf = new Map<R, Cluster>();
  const done: Cluster[] = clusters.map(({ groupMembers, ...c }) => {
    const cluster = { ...c, decks: groupMembers.length, tech: heldBy(groupMembers, CLUSTERING.tech, CLUSTERING.core) };
    for (const m of groupMembers) clusterOf.set(m.ref, cluster);
    return cluster;
  });
  // Card overlap: a loose deck joins the cluster of its nation whose core it holds most of (at least CORE of it).
  for (const deck of loose) {
    const held = new Set(deck.cards.map((c) => c.card_id));
    let best: { cluster: Cluster; share: number } | undefined;
    for (const cluster of done) {
      if (cluster.main !== deck.main) continue;
      const share = cluster.core.filter((id) => held.has(id)).length / cluster.core.length;
      if (share >= CLUSTERING.core && (!best || share > best.share)) best = { cluster, share };
    }
    if (best) clusterOf.set(deck.ref, best.cluster);
  }
  return { clusters: done, clusterOf };
}

/** `text` within `max` UTF-16 units, cut at a code point with `…` where it is longer. */
const within = (text: string, max: number): string => {
  if (text.length <= max) return text;
  let cut = '';
  for (const ch of text) {
    if (cut.length + ch.length > max - 1) break;
    cut += ch;
  }
  return `${cut}…`;
};

/** A cluster's name: its nation's, then its anchors' (by `nameOf`), within `max` UTF-16 units (one anchor, cut, if need be). */
export function clusterName(cluster: Cluster, nation: string, nameOf: (cardId: string) => string, max: number): string {
  const names = cluster.anchors.map(nameOf);
  const both = `${nation} · ${names.join(' and ')}`;
  return both.length <= max ? both : within(`${nation} · ${names[0] ?? ''}`, max);
}
