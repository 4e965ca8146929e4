import { ownerRoute } from '#http/owner-route.ts';
import { likeDeck } from '#public/likes.ts';

export const handler = ownerRoute('likeDeck', likeDeck);
