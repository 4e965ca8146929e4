import { ownerHandler } from '#http/owner-handler.ts';
import { listDeliveries } from '#webhooks/manage.ts';

export const handler = ownerHandler(listDeliveries);
