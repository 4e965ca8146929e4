import { route } from '#http/route.ts';
import { readCard } from '#public/cards.ts';

export const handler = route('readCard', readCard);
