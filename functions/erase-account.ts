import { eraseOwnAccount } from '#account/erase.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(eraseOwnAccount);
