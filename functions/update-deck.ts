import { updateOwnerDeck } from '#decks/update.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(updateOwnerDeck);
