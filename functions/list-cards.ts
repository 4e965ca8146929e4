import { listCards } from '#public/cards.ts';
import { route } from '#http/route.ts';

export const handler = route('listCards', listCards);
