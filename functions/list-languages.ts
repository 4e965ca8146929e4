import { route } from '#http/route.ts';
import { listLanguages } from '#public/languages.ts';

export const handler = route(listLanguages);
