import { route } from '#http/route.ts';
import { readSharedDeck } from '#public/shared-read.ts';

export const handler = route(readSharedDeck);
