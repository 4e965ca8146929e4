import { readDocsPage } from '#docs/page.ts';
import { route } from '#http/route.ts';

export const handler = route(readDocsPage);
