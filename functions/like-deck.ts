import { likeDeck } from '#decks/likes.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(likeDeck);
