import { searchPublicDecks } from '#public/search.ts';
import { route } from '#http/route.ts';

export const handler = route('searchDecks', searchPublicDecks);
