import { readSharedDeck } from '#public/shared-read.ts';
import { route } from '#http/route.ts';

export const handler = route('readSharedDeck', readSharedDeck);
