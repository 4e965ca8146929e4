import { route } from '#http/route.ts';
import { readCodeImage } from '#public/code-image.ts';

export const handler = route(readCodeImage);
