import { readOwnerDeck } from '#decks/read.ts';
import { route } from '#http/route.ts';

export const handler = route('readDeck', readOwnerDeck);
