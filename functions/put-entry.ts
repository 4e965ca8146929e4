import { putEntry } from '#events/submit.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(putEntry);
