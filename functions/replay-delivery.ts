import { ownerHandler } from '#http/owner-handler.ts';
import { replayDelivery } from '#webhooks/manage.ts';

export const handler = ownerHandler(replayDelivery);
