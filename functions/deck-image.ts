import { route } from '#http/route.ts';
import { readDeckImage } from '#public/deck-image.ts';

export const handler = route(readDeckImage);
