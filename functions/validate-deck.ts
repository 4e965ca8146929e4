import { validateOwnerDeck } from '#decks/validate.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(validateOwnerDeck);
