import { ownerHandler } from '#http/owner-handler.ts';
import { readWebhook } from '#webhooks/manage.ts';

export const handler = ownerHandler(readWebhook);
