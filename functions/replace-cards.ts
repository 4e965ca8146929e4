import { replaceDeckCards } from '#decks/replace.ts';
import { route } from '#http/route.ts';

export const handler = route('replaceCards', replaceDeckCards);
