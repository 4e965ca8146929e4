import { updateOwnerDeck } from '#decks/update.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(updateOwnerDeck);
