import { readDocsPage } from '#docs/page.ts';
import { route } from '#http/stack.ts';

export const handler = route(readDocsPage);
