import { listEventEntries } from '#events/lists.ts';
import { publicHandler } from '#http/stack.ts';

export const handler = publicHandler(listEventEntries);
