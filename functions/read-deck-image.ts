import { route } from '#http/stack.ts';
import { readDeckImage } from '#public/deck-image.ts';

export const handler = route(readDeckImage);
