import { deleteOwnerDeck } from '#decks/delete.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(deleteOwnerDeck);
