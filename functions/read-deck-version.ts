import { readOwnerVersion } from '#decks/read-version.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(readOwnerVersion);
