import { ownerHandler } from '#http/owner-handler.ts';
import { createWebhook } from '#webhooks/manage.ts';

export const handler = ownerHandler(createWebhook);
