import { route } from '#http/route.ts';
import { readCodePage } from '#public/code-page.ts';

export const handler = route(readCodePage);
