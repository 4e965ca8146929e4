import { createOwnerDeck } from '#decks/create.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(createOwnerDeck);
