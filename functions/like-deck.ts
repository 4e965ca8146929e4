import { likeDeck } from '#decks/likes.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(likeDeck);
