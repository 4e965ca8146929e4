import { route } from '#http/stack.ts';
import { listLanguages } from '#public/languages.ts';

export const handler = route(listLanguages);
