import { likeDeck } from '#public/likes.ts';
import { route } from '#http/route.ts';

export const handler = route('likeDeck', likeDeck);
