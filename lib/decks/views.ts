/** What each kind of reader sees of a deck (contract §3). */
import { cardsSnapshot, parseDeckCode } from '#rules/deck-code.ts';
import type { DeckContent } from '#rules/deck-model.ts';
import type { ListedDeck, StoredDeck } from '#store/decks.ts';

/** The snapshot is derived from the stored canonical code, never stored itself. */
const snapshotOf = (code: string) => cardsSnapshot(parseDeckCode(code).cards);

/** A deck's content in the field order of the contract (validate answers this shape). */
export function contentView(d: DeckContent) {
  return {
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
  };
}

export const withSnapshot = (d: StoredDeck): DeckContent & StoredDeck => ({ ...d, cards_snapshot: snapshotOf(d.deck_code) });

export function ownerView(d: StoredDeck) {
  const { guide, archive, display, ...content } = contentView(withSnapshot(d));
  return {
    id: d.id,
    ...content,
    share_slug: d.share_slug,
    guide,
    archive,
    display,
    views: d.views,
    likes: d.likes,
    created_at: d.created_at,
    updated_at: d.updated_at,
    version: d.version,
  };
}

/** An owner list item: the owner deck without guide.description and archive. */
export function ownerListItem(d: ListedDeck) {
  const { guide } = d;
  return {
    id: d.id,
    name: d.name,
    main_faction: d.main_faction,
    ally_faction: d.ally_faction,
    deck_code: d.deck_code,
    cards_snapshot: snapshotOf(d.deck_code),
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
