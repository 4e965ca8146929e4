import { publicHandler } from '#http/stack.ts';
import { readCodeImage } from '#public/code-image.ts';

export const handler = publicHandler(readCodeImage);
