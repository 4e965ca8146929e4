import { route } from '#http/route.ts';
import { listCards } from '#public/cards.ts';

export const handler = route(listCards);
