import { publicHandler } from '#http/stack.ts';
import { readMetaCards } from '#public/meta-cards.ts';

export const handler = publicHandler(readMetaCards);
