/**
 * A deck's like count (decks table): its exact like count, which no index holds; likes.ts writes it
 * in each like's transaction, folds.ts folds it into the deck and its entries.
 *   pk COUNT#<share_slug>  sk COUNT  { likes, changes }
 */
import { itemKind } from './kind.ts';
export const LIKE_COUNT = itemKind('COUNT#');
export const likeCountKey = (slug: string) => ({ pk: LIKE_COUNT.pk(slug), sk: 'COUNT' });
