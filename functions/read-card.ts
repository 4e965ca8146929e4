import { route } from '#http/route.ts';
import { readCard } from '#public/card.ts';

export const handler = route(readCard);
