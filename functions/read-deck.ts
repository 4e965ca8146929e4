import { readOwnerDeck } from '#decks/read.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(readOwnerDeck);
