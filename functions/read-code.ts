import { route } from '#http/route.ts';
import { readCode } from '#public/code-facts.ts';

export const handler = route(readCode);
