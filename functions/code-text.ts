import { route } from '#http/route.ts';
import { readCodeText } from '#public/code-text.ts';

export const handler = route(readCodeText);
