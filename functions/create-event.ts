import { createEvent } from '#events/event.ts';
import { ownerHandler } from '#http/owner-handler.ts';

export const handler = ownerHandler(createEvent);
