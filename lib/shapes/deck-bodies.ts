/**
 * Every response body the API builds from a deck, in one place beside the shapes, each typed by its
 * declared shape (responses.ts): the owner deck and list item, the validate answer's deck, the public
 * deck and the search item. Codes are parsed once per container (#rules/parsed-codes.ts).
 */
import type { Catalogue } from '#rules/catalogue.ts';
import { listedPlainOf, plainOf, publicPlainOf, unlistedPlainOf } from '#rules/deck-fields.ts';
import type { DeckContent as Content } from '#rules/deck-model.ts';
import { deckStats, legality, otkChart, type Stats } from '#rules/insight.ts';
import { type ParsedCode, parsedCode, snapshotOf } from '#rules/parsed-codes.ts';
import type { ListedDeck, StoredDeck } from '#store/items/deck.ts';
import type { SearchEntry } from '#store/items/search-entry.ts';
import type { StoredVersion } from '#store/items/version.ts';
import type * as S from './responses.ts';
import type { Out } from './responses.ts';

/** Stats and legality of a parsed code, against the catalogue they were judged with (kept while the code is). */
const judged = new WeakMap<ParsedCode, { catalogue: Catalogue; stats: Stats; legality: ReturnType<typeof legality> }>();

/**
 * Stats and legality of a stored deck against the catalogue the service runs with now (contract §8.6),
 * judged once per code and catalogue in a container (a hot deck's reads do not judge it again).
 */
const insight = (code: string, catalogue: Catalogue) => {
  const parsed = parsedCode(code);
  let seen = judged.get(parsed);
  if (seen?.catalogue !== catalogue) {
    seen = { catalogue, stats: deckStats(parsed.deck, catalogue), legality: legality(parsed.deck, catalogue) };
    judged.set(parsed, seen);
  }
  return { stats: seen.stats, legality: seen.legality };
};

/** A deck's kept archetype as an answer shows it: none kept (a deck written before archetypes were) is none. */
const archetypeOf = (d: Pick<Content, 'archetype'>): Out<typeof S.Archetype> => d.archetype ?? null;

/** Id, derived fields and the snapshot, derived from the stored canonical code (never stored itself). */
export const deckIdentity = (d: Pick<StoredDeck, 'id' | 'name' | 'main_faction' | 'ally_faction' | 'deck_code'>) => ({
  id: d.id,
  name: d.name,
  main_faction: d.main_faction,
  ally_faction: d.ally_faction,
  deck_code: d.deck_code,
  cards_snapshot: snapshotOf(d.deck_code),
});

/** A deck's content in the field order of the contract (validate answers this shape). */
export const contentResponse = (d: Content): Out<typeof S.DeckContent> => ({
  name: d.name,
  main_faction: d.main_faction,
  ally_faction: d.ally_faction,
  deck_code: d.deck_code,
  cards_snapshot: snapshotOf(d.deck_code),
  archetype: archetypeOf(d),
  ...plainOf(d),
  guide: d.guide,
  archive: d.archive,
  display: d.display,
});

/** An owner list item: the owner deck without guide.description and archive. */
export function ownerListItem(d: ListedDeck): Out<typeof S.OwnerListItem> {
  const { guide } = d;
  return {
    ...deckIdentity(d),
    ...listedPlainOf(d),
    share_slug: d.share_slug,
    guide: guide && { system: guide.system, core_cards: guide.core_cards, reserve_recommendations: guide.reserve_recommendations },
    display: d.display,
    views: d.views,
    likes: d.likes,
    created_at: d.created_at,
    updated_at: d.updated_at,
    version: d.version,
  };
}

/** The owner deck: the list item with the whole guide, the archive, stats and legality. */
export const ownerDeck = (d: StoredDeck, catalogue: Catalogue): Out<typeof S.OwnerDeck> => ({
  ...ownerListItem(d),
  archetype: archetypeOf(d),
  ...unlistedPlainOf(d),
  guide: d.guide,
  archive: d.archive,
  ...insight(d.deck_code, catalogue),
});

/** One version of a deck (contract §9.2): the owner deck as it was, without views and likes (not versioned). */
export function deckVersion(d: StoredVersion, catalogue: Catalogue): Out<typeof S.DeckVersion> {
  const { views: _v, likes: _l, ...deck } = ownerDeck({ ...d, views: 0, likes: 0, author_name: '' }, catalogue);
  return deck;
}

/** What the public sees of a deck (contract §3): never visibility, sort_order, version or the owner. */
export function publicDeck(
  d: StoredDeck,
  shown: { views: number; views_7d: number; likes: number },
  catalogue: Catalogue,
): Out<typeof S.PublicDeck> {
  return {
    ...deckIdentity(d),
    archetype: archetypeOf(d),
    ...publicPlainOf(d),
    display: d.display,
    guide: d.guide,
    archive: { key_components: d.archive.key_components, alternatives: d.archive.alternatives, chart_settings: d.archive.chart_settings },
    author: { display_name: d.author_name },
    views: shown.views,
    views_7d: shown.views_7d,
    likes: shown.likes,
    created_at: d.created_at,
    updated_at: d.updated_at,
    ...insight(d.deck_code, catalogue),
  };
}

/** The OTK chart of a deck's archive (contract §8.6): exact probabilities, no simulation. */
export const otkChartOf = (d: StoredDeck): Out<typeof S.OtkChart> => ({
  items: otkChart(d.archive.chart_settings?.otkConfig.items ?? [], parsedCode(d.deck_code).deck.cards),
});

export function searchItem(e: SearchEntry): Out<typeof S.SearchItem> {
  return {
    id: e.deck_id,
    share_slug: e.slug,
    name: e.name,
    main_faction: e.main_faction,
    ally_faction: e.ally_faction,
    archetype: archetypeOf(e),
    ...publicPlainOf(e),
    system: e.system,
    display: e.display,
    author: { display_name: e.author_name },
    views: e.views,
    views_7d: e.views_7d ?? 0,
    likes: e.likes,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}
