import { route } from '#http/stack.ts';
import { readSharedDeck } from '#public/shared-read.ts';

export const handler = route(readSharedDeck);
