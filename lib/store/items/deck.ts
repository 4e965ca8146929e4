/**
 * The deck item (decks table): one per deck, keyed by its owner, so that an owner path can only ever
 * reach the caller's own decks.
 *   pk USER#<user_id>  sk DECK#<deck_id>  { deck_id, …StoredDeck but id and guide.description,
 *                                           guide_description, owner_order, texts_at }
 * Its repository is decks.ts; its search entries are search-entry.ts.
 */
import { LISTED_PLAIN, type UnlistedName } from '#rules/deck-fields.ts';
import type { DeckContent, Guide } from '#rules/deck-model.ts';
import { itemKind } from './kind.ts';

/** A deck as stored: its content and server fields. */
export interface StoredDeck extends DeckContent {
  id: string;
  user_id: string;
  share_slug: string;
  author_name: string;
  /** Folded counts (folds.ts): likes exact up to 10, within 10% beyond; views within a fold step (max(25, 25%, 3 per item)). */
  views: number;
  likes: number;
  /** The like counter's change the folded likes came from (folds.ts): a fold from an older one is refused. */
  likes_changes?: number;
  /** Folded views of the last 7 days (contract §10.3), folded with `views` (folds.ts); none before the deck was first folded. */
  views_7d?: number;
  /** The view count's revision the folded views came from (folds.ts): a fold from an older one is refused. */
  views_rev?: number;
  created_at: string;
  updated_at: string;
  version: number;
  /** Which versions hold the deck's current guide description and archive (items/version.ts); none before versions were kept. */
  texts_at?: TextsAt;
}
/** The versions that hold a deck's texts (items/version.ts: unchanged text is not copied into each version). */
export interface TextsAt {
  description: number;
  archive: number;
}
/** An owner list item: the projection of the owner-order index (no description, no archive). */
export type ListedDeck = Omit<StoredDeck, 'archive' | 'user_id' | 'author_name' | UnlistedName>;

/** Deck items: an owner's partition (`USER#<user_id>`), each deck under its sort key (`DECK#<deck_id>`). */
export const DECK = { ...itemKind('USER#'), sk: 'DECK#' };
export const deckPk = (userId: string) => DECK.pk(userId);
export const deckKey = (userId: string, deckId: string) => ({ pk: deckPk(userId), sk: `${DECK.sk}${deckId}` });

const INT32_OFFSET = 2 ** 31;
const MAX_MILLIS = 9_999_999_999_999;
/** Sort key of the owner list: sort_order ascending, then updated_at descending, then id. */
export const ownerOrder = (d: Pick<StoredDeck, 'sort_order' | 'updated_at' | 'id'>): string =>
  `${String(d.sort_order + INT32_OFFSET).padStart(10, '0')}#${String(MAX_MILLIS - Date.parse(d.updated_at)).padStart(13, '0')}#${d.id}`;

/** The deck item's attributes (without its keys); views and likes are written only by create and by folds. */
export function deckAttributes(d: StoredDeck): Record<string, unknown> {
  const { id, guide, ...rest } = d;
  return {
    deck_id: id,
    ...rest,
    owner_order: ownerOrder(d),
    // The description is kept apart so that lists (which project without it) stay small.
    guide: guide && { system: guide.system, core_cards: guide.core_cards, reserve_recommendations: guide.reserve_recommendations },
    guide_description: guide?.description ?? '',
  };
}

/** The deck item, keys and all. */
export const deckItem = (d: StoredDeck): Record<string, unknown> => ({ ...deckKey(d.user_id, d.id), ...deckAttributes(d) });

export function fromItem(item: Record<string, unknown>): StoredDeck {
  const { pk: _pk, sk: _sk, deck_id, owner_order: _o, guide, guide_description, ...rest } = item;
  const g = guide as Omit<Guide, 'description'> | null | undefined;
  return {
    ...(rest as Omit<StoredDeck, 'id' | 'guide'>),
    id: deck_id as string,
    guide: g ? { ...g, description: (guide_description as string | undefined) ?? '' } : null,
  };
}

/** What an owner list reads of a deck item (the owner-order index's projection): the deck without guide_description and archive. */
export const OWNER_LIST_ATTRIBUTES = [
  'deck_id',
  'share_slug',
  'name',
  'main_faction',
  'ally_faction',
  'deck_code',
  ...LISTED_PLAIN,
  'guide',
  'display',
  'views',
  'likes',
  'created_at',
  'updated_at',
  'version',
];
