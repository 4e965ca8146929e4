import { listOwnerDecks } from '#decks/list.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(listOwnerDecks);
