import { restoreOwnerVersion } from '#decks/restore-version.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(restoreOwnerVersion);
