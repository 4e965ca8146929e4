import { readCard } from '#public/cards.ts';
import { route } from '#http/route.ts';

export const handler = route('readCard', readCard);
