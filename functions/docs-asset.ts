import { readDocsAsset } from '#docs/page.ts';
import { publicHandler } from '#http/stack.ts';

export const handler = publicHandler(readDocsAsset);
