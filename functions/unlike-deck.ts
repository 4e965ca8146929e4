import { unlikeDeck } from '#public/likes.ts';
import { route } from '#http/route.ts';

export const handler = route('unlikeDeck', unlikeDeck);
