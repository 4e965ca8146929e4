import { handleDeliveries } from '#workers/webhook-deliveries.ts';

export const handler = handleDeliveries;
