import { publicHandler } from '#http/stack.ts';
import { readCode } from '#public/code-facts.ts';

export const handler = publicHandler(readCode);
