import { putOwnCollection } from '#collection/collection.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(putOwnCollection);
