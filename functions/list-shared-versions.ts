import { route } from '#http/stack.ts';
import { listSharedVersions } from '#public/history.ts';

export const handler = route(listSharedVersions);
