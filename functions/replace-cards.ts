import { replaceDeckCards } from '#decks/replace.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(replaceDeckCards);
