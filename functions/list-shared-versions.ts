import { publicHandler } from '#http/stack.ts';
import { listSharedVersions } from '#public/history.ts';

export const handler = publicHandler(listSharedVersions);
