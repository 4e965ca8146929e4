import { eraseOwnAccount } from '#account/erase.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(eraseOwnAccount);
