/**
 * Every response body the API builds from a deck, in one place, each typed by its declared shape
 * (lib/shapes/responses.ts): the owner deck and list item, the validate answer's deck, the public
 * deck and the search item. (Counting page views is another concern: lib/public/view-counter.ts.)
 */
import { type CardCount, cardsSnapshot, parseDeckCode } from '#rules/deck-code.ts';
import type { DeckContent as Content } from '#rules/deck-model.ts';
import type * as S from '#shapes/responses.ts';
import type { Out } from '#shapes/responses.ts';
import type { ListedDeck, StoredDeck } from '#store/records.ts';
import type { SearchEntry } from '#store/search.ts';

/**
 * The snapshot of a stored canonical code, kept per container (codes change rarely; a list page of 50
 * then parses only the codes it has not seen). Frozen: answers share them.
 */
const snapshots = new Map<string, CardCount[]>();
const SNAPSHOTS_KEPT = 5_000;
function snapshotOf(code: string): CardCount[] {
  let snapshot = snapshots.get(code);
  if (!snapshot) {
    snapshot = Object.freeze(cardsSnapshot(parseDeckCode(code).cards)) as CardCount[];
    if (snapshots.size >= SNAPSHOTS_KEPT) snapshots.delete(snapshots.keys().next().value as string);
    snapshots.set(code, snapshot);
  }
  return snapshot;
}

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
  cards_snapshot: d.cards_snapshot,
  tags: d.tags,
  visibility: d.visibility,
  sort_order: d.sort_order,
  guide: d.guide,
  archive: d.archive,
  display: d.display,
});

export const withSnapshot = (d: StoredDeck): Content & StoredDeck => ({ ...d, cards_snapshot: deckIdentity(d).cards_snapshot });

/** An owner list item: the owner deck without guide.description and archive. */
export function ownerListItem(d: ListedDeck): Out<typeof S.OwnerListItem> {
  const { guide } = d;
  return {
    ...deckIdentity(d),
    tags: d.tags,
    visibility: d.visibility,
    sort_order: d.sort_order,
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

/** The owner deck: the list item with the whole guide and the archive. */
export const ownerDeck = (d: StoredDeck): Out<typeof S.OwnerDeck> => ({ ...ownerListItem(d), guide: d.guide, archive: d.archive });

/** What the public sees of a deck (contract §3): never visibility, sort_order, version or the owner. */
export function publicDeck(d: StoredDeck, counts: { views: number; likes: number }): Out<typeof S.PublicDeck> {
  return {
    ...deckIdentity(d),
    tags: d.tags,
    display: d.display,
    guide: d.guide,
    archive: { key_components: d.archive.key_components, alternatives: d.archive.alternatives, chart_settings: d.archive.chart_settings },
    author: { display_name: d.author_name },
    views: counts.views,
    likes: counts.likes,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function searchItem(e: SearchEntry): Out<typeof S.SearchItem> {
  return {
    id: e.deck_id,
    share_slug: e.slug,
    name: e.name,
    main_faction: e.main_faction,
    ally_faction: e.ally_faction,
    tags: e.tags,
    system: e.system,
    display: e.display,
    author: { display_name: e.author_name },
    views: e.views,
    likes: e.likes,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}
