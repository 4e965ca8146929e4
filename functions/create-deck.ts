import { createOwnerDeck } from '#decks/create.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(createOwnerDeck);
