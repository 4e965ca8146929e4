import { publicHandler } from '#http/stack.ts';
import { diffDecks } from '#public/diff.ts';

export const handler = publicHandler(diffDecks);
