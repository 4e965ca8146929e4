import { restoreOwnerVersion } from '#decks/restore-version.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(restoreOwnerVersion);
