import { publicHandler } from '#http/stack.ts';
import { readCard } from '#public/card.ts';

export const handler = publicHandler(readCard);
