import { listOwnerDecks } from '#decks/list.ts';
import { route } from '#http/route.ts';

export const handler = route('listDecks', listOwnerDecks);
