import { publicHandler } from '#http/stack.ts';
import { readSimilarDecks } from '#public/similar.ts';

export const handler = publicHandler(readSimilarDecks);
