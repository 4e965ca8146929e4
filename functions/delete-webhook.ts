import { ownerHandler } from '#http/owner-handler.ts';
import { deleteWebhook } from '#webhooks/manage.ts';

export const handler = ownerHandler(deleteWebhook);
