import { updateOwnerDeck } from '#decks/update.ts';
import { route } from '#http/route.ts';

export const handler = route('updateDeck', updateOwnerDeck);
