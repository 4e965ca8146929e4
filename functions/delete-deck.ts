import { deleteOwnerDeck } from '#decks/delete.ts';
import { route } from '#http/route.ts';

export const handler = route('deleteDeck', deleteOwnerDeck);
