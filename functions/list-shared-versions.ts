import { route } from '#http/route.ts';
import { listSharedVersions } from '#public/history.ts';

export const handler = route(listSharedVersions);
