import { revokeOwnKey } from '#account/keys.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(revokeOwnKey);
