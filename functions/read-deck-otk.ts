import { readOwnerOtk } from '#decks/otk.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(readOwnerOtk);
