import { publicHandler } from '#http/stack.ts';
import { readSimilarToCode } from '#public/similar.ts';

export const handler = publicHandler(readSimilarToCode);
