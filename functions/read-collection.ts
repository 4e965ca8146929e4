import { readOwnCollection } from '#collection/read.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(readOwnCollection);
