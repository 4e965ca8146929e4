import { exportOwnAccount } from '#account/export.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute(exportOwnAccount);
