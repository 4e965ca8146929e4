/** What an owner sees of a deck (contract §3); `deckIdentity` is shared with the public view. */
import { cardsSnapshot, parseDeckCode } from '#rules/deck-code.ts';
import type { DeckContent } from '#rules/deck-model.ts';
import type { ListedDeck, StoredDeck } from '#store/decks.ts';

/** Id, derived fields and the snapshot, derived from the stored canonical code (never stored itself). */
export const deckIdentity = (d: Pick<StoredDeck, 'id' | 'name' | 'main_faction' | 'ally_faction' | 'deck_code'>) => ({
  id: d.id,
  name: d.name,
  main_faction: d.main_faction,
  ally_faction: d.ally_faction,
  deck_code: d.deck_code,
  cards_snapshot: cardsSnapshot(parseDeckCode(d.deck_code).cards),
});

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

export const withSnapshot = (d: StoredDeck): DeckContent & StoredDeck => ({ ...d, cards_snapshot: deckIdentity(d).cards_snapshot });

/** An owner list item: the owner deck without guide.description and archive. */
export function ownerListItem(d: ListedDeck) {
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
export const ownerView = (d: StoredDeck) => ({ ...ownerListItem(d), guide: d.guide, archive: d.archive });
