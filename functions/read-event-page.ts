import { readEventPage } from '#events/page.ts';
import { publicHandler } from '#http/stack.ts';

export const handler = publicHandler(readEventPage);
