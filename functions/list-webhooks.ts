import { ownerHandler } from '#http/owner-handler.ts';
import { listWebhooks } from '#webhooks/manage.ts';

export const handler = ownerHandler(listWebhooks);
