/**
 * Cluster archetypes (contract §13.3): once a day (an EventBridge schedule; `npx deckctl archetypes cluster` on demand),
 * the public decks no rule of the rules in use takes are clustered by their cards (lib/rules/clusters.ts), and each is
 * given its cluster's archetype — `{ id, name, by: "cluster" }`, named by its nation and its anchors — or none, with its
 * search entries (lib/store/decks.ts reclassifyAsRead: only where it differs, only while the deck is as read).
 * Streamed in two passes of a Scan of the share-slug index (deck items alone), a page at a time: the first counts the
 * groups, the second writes each deck's cluster — no deck is held past its page, whatever the library's size. The
 * archetypes' weeks (lib/rules/archetype-trend.ts) are kept with the clusters: this week's figures as the run starts.
 */
import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { logger } from '#logger';
import { archetypeOf, type Rules } from '#rules/archetype-of.ts';
import { withWeek } from '#rules/archetype-trend.ts';
import { type Catalogue, RARITIES } from '#rules/catalogue.ts';
import { type Cluster, type ClusterCatalogue, ClusterCount, clusterName } from '#rules/clusters.ts';
import { type Deck, DeckCodeError } from '#rules/deck-code.ts';
import type { KeptArchetype } from '#rules/deck-model.ts';
import { factionName } from '#rules/faction-names.ts';
import { ARCHETYPE_NAME_CHARS } from '#rules/ids.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import { atMost } from '#store/at-most.ts';
import { readClusters, writeClusters } from '#store/clusters.ts';
import { allPublicDecks, countReclassified, reclassifyAsRead } from '#store/decks.ts';
import type { StoredDeck } from '#store/items/deck.ts';
import { readCounts } from '#store/plays.ts';

/** Decks written at once. */
const DECKS_AT_ONCE = 8;

/**
 * What a run did: the public decks its first pass read (`read`), those no rule takes (`decks`), those clustered, the
 * clusters, decks written, unchanged, changed meanwhile, undecodable; and the read units of its two Scans (as DynamoDB
 * reports them).
 */
export interface ClusterRun {
  read: number;
  decks: number;
  clustered: number;
  clusters: number;
  reclassified: number;
  unchanged: number;
  changed_meanwhile: number;
  unreadable: number;
  scan_read_units: number;
}

/** What clustering reads of a catalogue: a card's nation, its rarity's rank (elite highest). */
const clusterCatalogue = (c: Catalogue): ClusterCatalogue => ({
  factionOf: (id) => c.get(id)?.faction,
  rank: (id) => {
    const rarity = c.get(id)?.rarity;
    return rarity ? RARITIES.indexOf(rarity) : -1;
  },
});

/** A cluster's archetype as a deck keeps it: named by its nation (in English) and its anchors' names. */
const archetypeOfCluster = (cluster: Cluster, c: Catalogue): KeptArchetype => ({
  id: cluster.id,
  name: clusterName(cluster, factionName(cluster.main, 'en'), (id) => c.get(id)?.name ?? id, ARCHETYPE_NAME_CHARS),
  by: 'cluster',
});

/**
 * A public deck's cards, when clustering is its to say: none for one a rule takes (`apply` keeps it so), or — with no
 * rules read — one a rule gave its archetype (it stays); none for a code that does not decode (counted).
 */
function clusterable(d: StoredDeck, rules: Rules | undefined): Deck | undefined | 'unreadable' {
  let deck: Deck;
  try {
    deck = parsedCode(d.deck_code).deck;
  } catch (e) {
    if (e instanceof DeckCodeError) return 'unreadable';
    throw e;
  }
  if (rules ? archetypeOf(rules, deck) : d.archetype?.by === 'rule') return undefined;
  return deck;
}

export async function clusterArchetypes(): Promise<ClusterRun> {
  const c = catalogue();
  const rules = archetypeRules(c);
  const run: ClusterRun = {
    read: 0,
    decks: 0,
    clustered: 0,
    clusters: 0,
    reclassified: 0,
    unchanged: 0,
    changed_meanwhile: 0,
    unreadable: 0,
    scan_read_units: 0,
  };
  const units = (n: number) => {
    run.scan_read_units += n;
  };
  const started = new Date();
  const [figures, kept] = await Promise.all([readCounts(), readClusters()]);
  const trend = withWeek(kept.trend, started, figures.decks, figures.counts.archetypes);
  // The first pass: the groups counted.
  const count = new ClusterCount(clusterCatalogue(c));
  for await (const d of allPublicDecks(units)) {
    run.read++;
    const deck = clusterable(d, rules);
    if (deck === 'unreadable') run.unreadable++;
    else if (deck) count.add({ main: d.main_faction, cards: deck.cards });
  }
  const clusters = count.clusters();
  run.clusters = clusters.all.length;
  const named = new Map(clusters.all.map((cluster) => [cluster.id, archetypeOfCluster(cluster, c)]));
  // The run's clusters, for the figures by archetype: each one's name, nation and signature; and the weeks.
  await writeClusters(
    new Map(clusters.all.map(({ id, ...cluster }) => [id, { ...cluster, name: (named.get(id) as { name: string }).name }])),
    trend,
    started,
  );
  /** The archetype of a deck's cluster: none when no cluster holds it. */
  const clusterOf = (main: string, deck: Deck): KeptArchetype => {
    const cluster = clusters.of({ main, cards: deck.cards });
    return cluster ? (named.get(cluster.id) as KeptArchetype) : null;
  };
  /** A deck's cluster as it is when written again: its own (public, no rule taking it), else what it has. */
  const wanted = (d: StoredDeck): KeptArchetype => {
    const deck = d.visibility === 'public' ? clusterable(d, rules) : undefined;
    return !deck || deck === 'unreadable' ? (d.archetype ?? null) : clusterOf(d.main_faction, deck);
  };
  // The second pass: each deck's cluster, written where it differs (on the deck as it is then: reclassifyAsRead).
  await atMost(DECKS_AT_ONCE, allPublicDecks(units), async (d) => {
    const deck = clusterable(d, rules);
    if (!deck || deck === 'unreadable') return;
    run.decks++;
    const given = clusterOf(d.main_faction, deck);
    if (given) run.clustered++;
    countReclassified(run, await reclassifyAsRead(d, (now) => (now === d ? given : wanted(now))));
  });
  logger.info('clusters', { ...run });
  return run;
}

/** The daily run (an EventBridge schedule's event is not read). */
export const clusterArchetypesDaily = async (): Promise<ClusterRun> => clusterArchetypes();
