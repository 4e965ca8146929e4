import { createOwnKey } from '#account/keys.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(createOwnKey);
