/**
 * Cluster archetypes (contract §13.3): once a day (an EventBridge schedule; `npx deckctl archetypes cluster` on demand),
 * the public decks no rule of the rules in use takes are clustered by their cards (lib/rules/clusters.ts), and each is
 * given its cluster's archetype — `{ id, name, by: "cluster" }`, named by its nation and its anchors in English — or none,
 * with its search entries (lib/store/decks.ts reclassifyAsRead: only where it differs, only while the deck is as
 * read). The decks come a page at a time from a Scan of the share-slug index (deck items alone); what is kept of each
 * until its group is known is its key, nation and cards (a few hundred bytes a deck), never the deck.
 */
import { archetypeRules } from '#catalogue/archetypes.ts';
import { catalogue } from '#catalogue/load.ts';
import { logger } from '#logger';
import { archetypeOf } from '#rules/archetype-of.ts';
import type { Catalogue } from '#rules/catalogue.ts';
import { RARITIES } from '#rules/catalogue.ts';
import { type Cluster, type ClusterCatalogue, type ClusterDeck, clusterName, clustersOf } from '#rules/clusters.ts';
import type { KeptArchetype } from '#rules/deck-model.ts';
import { factionName } from '#rules/faction-names.ts';
import { ARCHETYPE_NAME_CHARS } from '#rules/ids.ts';
import { parsedCode } from '#rules/parsed-codes.ts';
import { atMost } from '#store/at-most.ts';
import { allPublicDecks, getDeck, reclassifyAsRead } from '#store/decks.ts';

/** Decks written at once. */
const DECKS_AT_ONCE = 8;

/** What a run did: decks read, clusters made, decks given a cluster, decks written. */
export interface ClusterRun {
  decks: number;
  clustered: number;
  clusters: number;
  reclassified: number;
  unchanged: number;
  changed_meanwhile: number;
}

/** What clustering reads of a catalogue: a card's nation, its rarity's rank (elite highest). */
const clusterCatalogue = (c: Catalogue): ClusterCatalogue => ({
  factionOf: (id) => c.get(id)?.faction,
  rank: (id) => {
    const rarity = c.get(id)?.rarity;
    return rarity ? RARITIES.indexOf(rarity) : -1;
  },
});

/** A cluster's archetype as a deck keeps it: named in English by its nation and its anchors' names. */
const archetypeOfCluster = (cluster: Cluster, c: Catalogue): KeptArchetype => ({
  id: cluster.id,
  name: clusterName(cluster, factionName(cluster.main, 'en'), (id) => c.get(id)?.name ?? id, ARCHETYPE_NAME_CHARS),
  by: 'cluster',
});

export async function clusterArchetypes(): Promise<ClusterRun> {
  const c = catalogue();
  const rules = archetypeRules(c);
  const decks: ClusterDeck<string>[] = [];
  const held = new Map<string, KeptArchetype | undefined>();
  for await (const d of allPublicDecks()) {
    const deck = parsedCode(d.deck_code).deck;
    // A deck a rule takes is the rule's (`apply` keeps it so); with no rules read, what a rule gave it stays.
    if (rules ? archetypeOf(rules, deck) : d.archetype?.by === 'rule') continue;
    const key = `${d.user_id}/${d.id}`;
    decks.push({ ref: key, main: d.main_faction, cards: deck.cards });
    held.set(key, d.archetype);
  }
  const { clusters, clusterOf } = clustersOf(decks, clusterCatalogue(c));
  const named = new Map(clusters.map((cluster) => [cluster.id, archetypeOfCluster(cluster, c)]));
  const run: ClusterRun = {
    decks: decks.length,
    clustered: clusterOf.size,
    clusters: clusters.length,
    reclassified: 0,
    unchanged: 0,
    changed_meanwhile: 0,
  };
  await atMost(DECKS_AT_ONCE, decks.values(), async ({ ref }) => {
    const wanted = clusterOf.has(ref) ? (named.get((clusterOf.get(ref) as Cluster).id) as KeptArchetype) : null;
    if ((held.get(ref) ?? null)?.id === wanted?.id && (held.get(ref) ?? null)?.name === wanted?.name) {
      run.unchanged++;
      return;
    }
    const [userId, deckId] = ref.split('/') as [string, string];
    const now = await getDeck(userId, deckId);
    // Gone, or no longer public (a write since): its own write decided its archetype.
    if (now?.visibility !== 'public') return void run.changed_meanwhile++;
    // The deck as it is now: a rule may take it since (its own write kept the rule's), and its code may have changed.
    const outcome = await reclassifyAsRead(now, (deck) =>
      deck.deck_code === now.deck_code && !(rules && archetypeOf(rules, parsedCode(deck.deck_code).deck))
        ? wanted
        : (deck.archetype ?? null),
    );
    if (outcome === 'reclassified') run.reclassified++;
    else if (outcome === 'unchanged') run.unchanged++;
    else run.changed_meanwhile++;
  });
  logger.info('clusters', { ...run });
  return run;
}

/** The daily run (an EventBridge schedule's event is not read). */
export const clusterArchetypesDaily = async (): Promise<ClusterRun> => clusterArchetypes();
