import { readOwnerOtk } from '#decks/otk.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(readOwnerOtk);
