import { route } from '#http/stack.ts';
import { readCodeImage } from '#public/code-image.ts';

export const handler = route(readCodeImage);
