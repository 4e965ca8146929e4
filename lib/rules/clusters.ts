/**
 * Clusters for the public decks no archetype rule takes (contract §13.3), pure and deterministic: the same decks, in
 * any order, make the same clusters with the same ids.
 *
 * - A deck's anchors are its ANCHORS cards of its main nation's own (not its ally's, not neutral): the rarest first (an
 *   elite card is what a deck is built around; copies cannot tell them apart — only standard cards reach 4), then the
 *   most copies, then the lower card id. They are the deck's own: another deck added or taken away never moves them.
 * - Decks of one main nation with the same anchors (the cards they share: their overlap where it matters most) are a
 *   group; a group of at least MIN_DECKS decks is a cluster. Its signature (HSReplay's): its core cards, those at least
 *   CORE of its decks hold (its anchors always among them), and its tech cards, those at least TECH hold.
 * - Its id is its nation's and its anchors' (a digest): it stays while the cluster does, whatever its core and tech do;
 *   its name is its nation's and its anchors'.
 * So one deck added changes no other deck's cluster: it counts in its own group alone, which it may make a cluster.
 *
 * Streamed in two passes over the library, holding no deck: the first counts each group's decks and how many hold each
 * card (memory bounded by the groups, at most the pairs of a nation's cards, not by the library); the second reads
 * each deck's cluster off its anchors.
 */
import { createHash } from 'node:crypto';
import type { CardCount } from './deck-code.ts';

/** The clustering's parameters, once. */
export const CLUSTERING = {
  /** Cards a deck is grouped by. */
  anchors: 2,
  /** Decks a group needs to be a cluster. */
  minDecks: 5,
  /** Share of a cluster's decks a core card is in. */
  core: 0.8,
  /** Share of a cluster's decks a tech card is in. */
  tech: 0.3,
} as const;

/** A deck as clustering reads it: its main nation and its cards. */
export interface ClusterDeck {
  main: string;
  cards: readonly CardCount[];
}

/** A cluster: its id, nation, anchors, signature (core and tech cards, each by card id in order) and decks. */
export interface Cluster {
  id: string;
  main: string;
  anchors: string[];
  core: string[];
  tech: string[];
  decks: number;
}

/** What clustering reads of the catalogue: a card's nation, and how rare it is (higher: rarer); none for a card it lacks. */
export interface ClusterCatalogue {
  factionOf(cardId: string): string | undefined;
  rank(cardId: string): number;
}

/** A cluster's id: its nation and a digest of its anchors (lower-case hex: an archetype id's form). */
export const clusterId = (main: string, anchors: readonly string[]): string =>
  `cluster-${main}-${createHash('sha256')
    .update(`${main}\n${anchors.join(',')}`)
    .digest('hex')
    .slice(0, 12)}`;

/** A deck's anchors (its main nation's cards: the rarer first, then the more copies, then by id), sorted by id; none: []. */
export function anchorsOf(deck: ClusterDeck, catalogue: ClusterCatalogue): string[] {
  return deck.cards
    .filter((c) => catalogue.factionOf(c.card_id) === deck.main)
    .sort((a, b) => catalogue.rank(b.card_id) - catalogue.rank(a.card_id) || b.count - a.count || (a.card_id < b.card_id ? -1 : 1))
    .slice(0, CLUSTERING.anchors)
    .map((c) => c.card_id)
    .sort();
}

/** The group a deck is in: its nation and anchors; undefined for a deck with no card of its nation's own. */
const groupKey = (deck: ClusterDeck, catalogue: ClusterCatalogue): string | undefined => {
  const anchors = anchorsOf(deck, catalogue);
  return anchors.length === 0 ? undefined : `${deck.main}:${anchors.join(',')}`;
};

interface Tally {
  main: string;
  anchors: string[];
  decks: number;
  /** Decks of the group holding each card. */
  holding: Map<string, number>;
}

/** The first pass: a group's decks counted, and how many hold each card. */
export class ClusterCount {
  readonly #groups = new Map<string, Tally>();
  readonly #catalogue: ClusterCatalogue;
  constructor(catalogue: ClusterCatalogue) {
    this.#catalogue = catalogue;
  }

  add(deck: ClusterDeck): void {
    const key = groupKey(deck, this.#catalogue);
    if (key === undefined) return;
    const tally = this.#groups.get(key) ?? { main: deck.main, anchors: anchorsOf(deck, this.#catalogue), decks: 0, holding: new Map() };
    tally.decks++;
    for (const c of deck.cards) tally.holding.set(c.card_id, (tally.holding.get(c.card_id) ?? 0) + 1);
    this.#groups.set(key, tally);
  }

  /** The clusters the counted decks make (by id), and what tells the second pass a deck's. */
  clusters(): Clusters {
    const found = new Map<string, Cluster>();
    for (const [key, t] of [...this.#groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (t.decks < CLUSTERING.minDecks) continue;
      const share = (n: number) => n / t.decks;
      const cards = [...t.holding].sort(([a], [b]) => (a < b ? -1 : 1));
      found.set(key, {
        id: clusterId(t.main, t.anchors),
        main: t.main,
        anchors: t.anchors,
        core: cards.filter(([, n]) => share(n) >= CLUSTERING.core).map(([id]) => id),
        tech: cards.filter(([, n]) => share(n) >= CLUSTERING.tech && share(n) < CLUSTERING.core).map(([id]) => id),
        decks: t.decks,
      });
    }
    return new Clusters(found, this.#catalogue);
  }
}

/** The second pass: a deck's cluster, off its anchors. */
export class Clusters {
  readonly #byGroup: ReadonlyMap<string, Cluster>;
  readonly #catalogue: ClusterCatalogue;
  constructor(byGroup: ReadonlyMap<string, Cluster>, catalogue: ClusterCatalogue) {
    this.#byGroup = byGroup;
    this.#catalogue = catalogue;
  }

  get all(): Cluster[] {
    return [...this.#byGroup.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  of(deck: ClusterDeck): Cluster | undefined {
    const key = groupKey(deck, this.#catalogue);
    return key === undefined ? undefined : this.#byGroup.get(key);
  }
}

/** Both passes over decks held in a list (the tests', a bulk file's): the clusters and each deck's. */
export function clustersOf(
  decks: readonly ClusterDeck[],
  catalogue: ClusterCatalogue,
): { clusters: Cluster[]; of: (d: ClusterDeck) => Cluster | undefined } {
  const count = new ClusterCount(catalogue);
  for (const d of decks) count.add(d);
  const clusters = count.clusters();
  return { clusters: clusters.all, of: (d) => clusters.of(d) };
}

/** `text` within `max` UTF-16 units, cut at a code point with `…` where it is longer. */
const within = (text: string, max: number): string => {
  if (text.length <= max) return text;
  let cut = '';
  for (const ch of text) {
    if (cut.length + ch.length > max - 1) break;
    cut += ch;
  }
  return `${cut.trimEnd()}…`;
};

/** A cluster's name: its nation's, then its anchors' (by `nameOf`, trimmed), within `max` UTF-16 units (one anchor, cut, if need be). */
export function clusterName(cluster: Cluster, nation: string, nameOf: (cardId: string) => string, max: number): string {
  const names = cluster.anchors.map((id) => nameOf(id).trim());
  const both = `${nation} · ${names.join(' · ')}`;
  return both.length <= max ? both : within(`${nation} · ${names[0] ?? ''}`, max);
}
