/** The records of the store: what a deck is once stored (one declaration, read by every repository). */
import type { DeckContent } from '#rules/deck-model.ts';

/** A deck as stored: its content and server fields. */
export interface StoredDeck extends DeckContent {
  id: string;
  user_id: string;
  share_slug: string;
  author_name: string;
  /** Folded counts (counters.ts): likes exact up to 10, within 10% beyond; views within a fold step (max(25, 25%, 3 per item)). */
  views: number;
  likes: number;
  /** The like counter's change the folded likes came from (counters.ts): a fold from an older one is refused. */
  likes_changes?: number;
  created_at: string;
  updated_at: string;
  version: number;
}
/** An owner list item: the projection of the owner-order index (no description, no archive). */
export type ListedDeck = Omit<StoredDeck, 'archive' | 'user_id' | 'author_name'>;
