import { publicHandler } from '#http/stack.ts';
import { listCards } from '#public/cards.ts';

export const handler = publicHandler(listCards);
