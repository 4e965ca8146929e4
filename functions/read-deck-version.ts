import { readOwnerVersion } from '#decks/read-version.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(readOwnerVersion);
