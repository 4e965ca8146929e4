import { listEventEntriesCsv } from '#events/lists.ts';
import { publicHandler } from '#http/stack.ts';

export const handler = publicHandler(listEventEntriesCsv);
