import { ownerRoute } from '#http/owner-route.ts';
import { unlikeDeck } from '#public/likes.ts';

export const handler = ownerRoute('unlikeDeck', unlikeDeck);
