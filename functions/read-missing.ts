import { readOwnMissing } from '#collection/missing.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(readOwnMissing);
