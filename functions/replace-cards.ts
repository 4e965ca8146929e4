import { replaceDeckCards } from '#decks/replace.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(replaceDeckCards);
