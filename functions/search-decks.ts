import { publicHandler } from '#http/stack.ts';
import { searchPublicDecks } from '#public/search.ts';

export const handler = publicHandler(searchPublicDecks);
