import { unlikeDeck } from '#decks/likes.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(unlikeDeck);
