import { createOwnerDeck } from '#decks/create.ts';
import { route } from '#http/route.ts';

export const handler = route('createDeck', createOwnerDeck);
