import { route } from '#http/stack.ts';
import { readSharePage } from '#public/share-page.ts';

export const handler = route(readSharePage);
