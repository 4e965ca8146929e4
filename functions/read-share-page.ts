import { publicHandler } from '#http/stack.ts';
import { readSharePage } from '#public/share-page.ts';

export const handler = publicHandler(readSharePage);
