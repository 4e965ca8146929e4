import { ownerHandler } from '#http/owner-handler.ts';
import { updateWebhook } from '#webhooks/manage.ts';

export const handler = ownerHandler(updateWebhook);
