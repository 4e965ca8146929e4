/**
 * The like counter (decks table): a deck's exact like count, which no index holds; likes.ts writes it
 * in each like's transaction, counters.ts folds it into the deck and its entries.
 *   pk COUNT#<share_slug>  sk COUNT  { likes, changes }
 */
import { itemKind } from './kind.ts';
export const COUNTER = itemKind('COUNT#');
export const counterKey = (slug: string) => ({ pk: COUNTER.pk(slug), sk: 'COUNT' });
