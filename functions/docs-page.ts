import { readDocsPage } from '#docs/page.ts';
import { publicHandler } from '#http/stack.ts';

export const handler = publicHandler(readDocsPage);
