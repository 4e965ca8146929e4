import { publicHandler } from '#http/stack.ts';
import { readSharedDeck } from '#public/shared-read.ts';

export const handler = publicHandler(readSharedDeck);
