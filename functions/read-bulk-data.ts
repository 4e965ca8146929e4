import { publicHandler } from '#http/stack.ts';
import { readBulkData } from '#public/bulk-data.ts';

export const handler = publicHandler(readBulkData);
