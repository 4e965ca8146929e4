import { countViews } from '#workers/access-log-views.ts';

export const handler = countViews;
