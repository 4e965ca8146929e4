import { publicHandler } from '#http/stack.ts';
import { readDeckImage } from '#public/deck-image.ts';

export const handler = publicHandler(readDeckImage);
