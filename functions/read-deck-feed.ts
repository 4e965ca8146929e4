import { publicHandler } from '#http/stack.ts';
import { readDeckFeed } from '#public/feed.ts';

export const handler = publicHandler(readDeckFeed);
