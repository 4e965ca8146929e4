import { countViews } from '#workers/count-views.ts';

export const handler = countViews;
