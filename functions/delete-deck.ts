import { deleteOwnerDeck } from '#decks/delete.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(deleteOwnerDeck);
