import { publicHandler } from '#http/stack.ts';
import { listLanguages } from '#public/languages.ts';

export const handler = publicHandler(listLanguages);
