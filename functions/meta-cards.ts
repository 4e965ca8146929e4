import { route } from '#http/route.ts';
import { readMetaCards } from '#public/meta-cards.ts';

export const handler = route(readMetaCards);
