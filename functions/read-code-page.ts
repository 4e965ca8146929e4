import { publicHandler } from '#http/stack.ts';
import { readCodePage } from '#public/code-page.ts';

export const handler = publicHandler(readCodePage);
