import { route } from '#http/route.ts';
import { diffDecks } from '#public/diff.ts';

export const handler = route(diffDecks);
