import { readEvent } from '#events/event.ts';
import { publicHandler } from '#http/stack.ts';

export const handler = publicHandler(readEvent);
