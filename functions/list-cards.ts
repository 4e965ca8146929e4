import { route } from '#http/stack.ts';
import { listCards } from '#public/cards.ts';

export const handler = route(listCards);
