import { unlikeDeck } from '#public/likes.ts';
import { ownerRoute } from '#http/owner-route.ts';

export const handler = ownerRoute('unlikeDeck', unlikeDeck);
