import { listOwnerDecks } from '#decks/list.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(listOwnerDecks);
