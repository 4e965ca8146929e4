import { deleteEntry } from '#events/entry.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(deleteEntry);
