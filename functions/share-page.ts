import { route } from '#http/route.ts';
import { readSharePage } from '#public/share-page.ts';

export const handler = route(readSharePage);
