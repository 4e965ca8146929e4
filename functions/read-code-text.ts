import { publicHandler } from '#http/stack.ts';
import { readCodeText } from '#public/code-text.ts';

export const handler = publicHandler(readCodeText);
