import { route } from '#http/route.ts';
import { searchPublicDecks } from '#public/search.ts';

export const handler = route(searchPublicDecks);
