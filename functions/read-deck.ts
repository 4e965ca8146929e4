import { readOwnerDeck } from '#decks/read.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(readOwnerDeck);
