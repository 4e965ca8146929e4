import { validateOwnerDeck } from '#decks/validate.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(validateOwnerDeck);
