import { exportOwnAccount } from '#account/export.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(exportOwnAccount);
