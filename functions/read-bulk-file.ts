import { publicHandler } from '#http/stack.ts';
import { readBulkFile } from '#public/bulk-data.ts';

export const handler = publicHandler(readBulkFile);
