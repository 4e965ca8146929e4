import { readOwnerVersion } from '#decks/versions.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(readOwnerVersion);
